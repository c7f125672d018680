import Foundation

/// Where the repository's own files (board files, fixtures) are while tests run.
public enum SourceTree {
    /// The repository root: `$APPLIANCE_SOURCE_ROOT` when set (the aarch64 tests run under qemu outside the
    /// build environment, where the compiled-in `/src/...` paths do not exist), else found from the calling
    /// source file, which lies in Tests/<target>/.
    public static func root(filePath: String = #filePath) -> String {
        if let root = ProcessInfo.processInfo.environment["APPLIANCE_SOURCE_ROOT"], !root.isEmpty { return root }
        var url = URL(fileURLWithPath: filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url.path }
        }
        return URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
    }
}
