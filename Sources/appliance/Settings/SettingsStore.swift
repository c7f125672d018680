import FoundationEssentials
import HAL

/// The settings file: one JSON document (`settings.json` in the state directory), replaced whole through
/// `AtomicFile` so a power cut leaves the old file or the new one. A file that cannot be read as settings is
/// never fatal: it is renamed aside (`settings.json.corrupt-N`, kept for a person to look at), reported, and
/// the defaults are used. A file that exists but cannot be read is left alone: not replaced this run.
struct SettingsStore {
    let path: String

    /// What `load` found.
    struct Loaded {
        var settings: ApplianceSettings
        /// Why the defaults are used although a file was there (and where it went); nil when all went well.
        var problem: String?
        /// Whether saving may replace what is at the path: no file was there, or the corrupt one was moved
        /// aside. A file that merely could not be read (EACCES, EIO, ...) must survive this run.
        var mayReplace = true
        /// The file was there but was not settings (not JSON, wrong types): a fault `stats` counts.
        var isCorrupt = false
    }

    /// The saved settings; the defaults when there is no file yet, or when it is corrupt (then moved aside).
    func load() -> Loaded {
        let bytes: [UInt8]
        do throws(SystemError) {
            bytes = try FileSystem.contents(of: path)
        } catch where error.errno == .noSuchFile {
            return Loaded(settings: ApplianceSettings(), problem: nil)
        } catch {
            return Loaded(settings: ApplianceSettings(),
                          problem: "settings not read, defaults used, changes will not be saved over it: \(error)",
                          mayReplace: false)
        }
        do {
            var settings = try JSONDecoder().decode(ApplianceSettings.self, from: Data(bytes))
            let replaced = settings.replaceOutOfRange()
            return Loaded(settings: settings, problem: replaced.isEmpty ? nil
                              : "settings file \(path): " + replaced.joined(separator: "; "))
        } catch {
            let reason = Self.describe(error)
            let aside = firstFreeAsidePath()
            do throws(SystemError) {
                try FileSystem.rename(path, to: aside)
                return Loaded(settings: ApplianceSettings(),
                              problem: "settings file \(path) is corrupt (\(reason)): kept as \(aside), defaults used",
                              isCorrupt: true)
            } catch {
                return Loaded(settings: ApplianceSettings(),
                              problem: "settings file \(path) is corrupt (\(reason)) and could not be moved aside "
                                  + "(\(error.reason)): defaults used, changes will not be saved over it",
                              mayReplace: false, isCorrupt: true)
            }
        }
    }

    /// Writes `settings` (temp file, fsync, rename, directory fsync).
    func save(_ settings: ApplianceSettings) throws(SystemError) {
        let bytes: [UInt8]
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            bytes = Array(try encoder.encode(settings)) + [UInt8(ascii: "\n")]
        } catch {
            // Plain strings, numbers and dictionaries always encode; this is a bug if it happens.
            throw SystemError("encode the settings as JSON", path: path, errno: .invalidArgument)
        }
        try AtomicFile.write(bytes, to: path)
    }

    /// `settings.json.corrupt-1`, or the next number not taken.
    private func firstFreeAsidePath() -> String {
        var number = 1
        while FileStatus.of("\(path).corrupt-\(number)") != nil { number += 1 }
        return "\(path).corrupt-\(number)"
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context): "not valid JSON: \(context.debugDescription)"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "wrong type at \(context.codingPath.map(\.stringValue).joined(separator: ".")): \(context.debugDescription)"
        default: "\(error)"
        }
    }
}
