/// A process that holds a PCM substream open, as the kernel tells in
/// `/proc/asound/cardN/pcmD{p,c}/subS/status` (`owner_pid`), named from `/proc/PID/comm`.
public struct PCMHolder: Hashable, Sendable, CustomStringConvertible {
    public var pid: Int32
    public var command: String
    public var card: Int
    public var device: Int
    public var subdevice: Int

    public init(pid: Int32, command: String, card: Int, device: Int, subdevice: Int) {
        self.pid = pid
        self.command = command
        self.card = card
        self.device = device
        self.subdevice = subdevice
    }

    public var description: String { "\(command) (pid \(pid)) on hw:\(card),\(device) sub \(subdevice)" }

    /// The processes holding substreams of `direction` that the ALSA name `name` may mean: the card and
    /// device it names (`hw:1,0`, `plughw:CARD=x,DEV=0`, `hw:x`), or every card for names like `default`.
    /// `procRoot` is `/proc` except in tests.
    public static func find(name: String, direction: PCMDirection, procRoot: String = "/proc") -> [PCMHolder] {
        let asound = procRoot + "/asound"
        let target = cardAndDevice(in: name, asound: asound)
        var holders: [PCMHolder] = []
        for cardEntry in (FileSystem.entries(in: asound) ?? []) where cardEntry.hasPrefix("card") {
            guard let card = Int(cardEntry.dropFirst(4)) else { continue }
            if let wanted = target.card, wanted != card { continue }
            let suffix: Character = direction == .playback ? "p" : "c"
            for pcmEntry in (FileSystem.entries(in: "\(asound)/\(cardEntry)") ?? [])
            where pcmEntry.hasPrefix("pcm") && pcmEntry.last == suffix {
                guard let device = Int(pcmEntry.dropFirst(3).dropLast()) else { continue }
                if let wanted = target.device, wanted != device { continue }
                for subEntry in (FileSystem.entries(in: "\(asound)/\(cardEntry)/\(pcmEntry)") ?? [])
                where subEntry.hasPrefix("sub") {
                    guard let subdevice = Int(subEntry.dropFirst(3)),
                          let status = readText("\(asound)/\(cardEntry)/\(pcmEntry)/\(subEntry)/status"),
                          let pid = ownerPID(inStatus: status) else { continue }
                    let command = readText("\(procRoot)/\(pid)/comm")?
                        .stripping("\n ") ?? "process"
                    holders.append(PCMHolder(pid: pid, command: command, card: card, device: device,
                                             subdevice: subdevice))
                }
            }
        }
        return holders
    }

    /// The `owner_pid` line of a substream status file (absent when the substream is closed).
    static func ownerPID(inStatus status: String) -> Int32? {
        for line in status.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].stripping(" \t") == "owner_pid" else { continue }
            return Int32(parts[1].stripping(" \t"))
        }
        return nil
    }

    /// Card and device numbers an ALSA name points at, where it says (`nil` = any).
    static func cardAndDevice(in name: String, asound: String) -> (card: Int?, device: Int?) {
        guard let colon = name.firstIndex(of: ":"), name[..<colon].hasSuffix("hw") else { return (nil, nil) }
        var card: Int?
        var device: Int?
        for (index, field) in name[name.index(after: colon)...].split(separator: ",").enumerated() {
            var value = String(field)
            var key = index == 0 ? "CARD" : index == 1 ? "DEV" : ""
            if let equals = value.firstIndex(of: "=") {
                key = String(value[..<equals])
                value = String(value[value.index(after: equals)...])
            }
            value = value.stripping("\"' ")
            switch key {
            case "CARD": card = Int(value) ?? cardNumber(forID: value, asound: asound)
            case "DEV": device = Int(value)
            default: break
            }
        }
        return (card, device)
    }

    /// `/proc/asound/<id>` is a symlink to `cardN`.
    private static func cardNumber(forID id: String, asound: String) -> Int? {
        guard let target = FileSystem.linkTarget(of: "\(asound)/\(id)"), target.hasPrefix("card") else { return nil }
        return Int(target.dropFirst(4))
    }

    /// A small text file (procfs files report size 0, so read until end of file).
    static func readText(_ path: String) -> String? {
        (try? FileSystem.contents(of: path)).map { String(decoding: $0, as: UTF8.self) }
    }
}

private extension StringProtocol {
    /// The string without leading and trailing characters from `set` (Foundation-free).
    func stripping(_ set: String) -> String {
        let characters = Set(set)
        var slice = Substring(self)
        while let first = slice.first, characters.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, characters.contains(last) { slice = slice.dropLast() }
        return String(slice)
    }
}
