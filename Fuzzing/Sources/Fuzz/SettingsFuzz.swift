/// The settings loader: the input is settings.json in the state directory, loaded as `appliance run` loads it
/// (a corrupt file is moved aside, which the next input's write replaces).
enum SettingsFuzz {
    static func run(_ input: [UInt8]) {
        let path = FuzzScratch.file(named: "settings.json", holding: input)
        let loaded = SettingsStore(path: path).load()
        var settings = loaded.settings
        // What load returns is in range: checking it again changes nothing.
        precondition(settings.replaceOutOfRange().isEmpty, "load returned settings out of range")
        for name in ["settings.json", "settings.json.corrupt-1"] { FuzzScratch.remove(name) }
    }
}
