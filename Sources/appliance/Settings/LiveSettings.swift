/// The settings as the running appliance holds them: one instance, read and changed on the control loop's
/// thread only. Changes mark it dirty; the daemon writes it out (`SettingsStore`) soon after, and always at
/// shutdown, so a power cut loses at most the last few seconds of changes.
final class LiveSettings {
    private(set) var value: ApplianceSettings
    /// Set by `update`, cleared by the daemon once saved.
    var isDirty = false

    init(_ value: ApplianceSettings) { self.value = value }

    func update(_ change: (inout ApplianceSettings) -> Void) {
        let before = value
        change(&value)
        if value != before { isDirty = true }
    }
}
