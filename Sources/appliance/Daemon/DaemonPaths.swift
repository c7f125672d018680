import HAL

/// Where the running appliance keeps things. Two layouts:
/// - the service (root, or systemd's `$STATE_DIRECTORY` / `$RUNTIME_DIRECTORY` set by StateDirectory= and
///   RuntimeDirectory=): settings and recordings under /var/lib/appliance, the media under
///   /var/lib/appliance/media, the control socket and the instance lock under /run/appliance;
/// - a developer run (anyone else): everything under `./.appliance/` in the current directory, so a checkout
///   keeps its own state and `rm -rf .appliance` starts afresh.
/// Every directory can be given explicitly (`--media`, `--recordings`, `--state`, `--socket`).
struct DaemonPaths: Hashable, Sendable {
    var state: String
    var runtime: String
    var media: String
    var recordings: String
    var socket: String

    var settings: String { state + "/settings.json" }
    var lock: String { runtime + "/appliance.lock" }

    /// The defaults for this process (see the type's comment).
    static func defaults(environment: (String) -> String? = CurrentProcess.environment,
                         isRoot: Bool = CurrentProcess.isRoot) -> DaemonPaths {
        let serviceState = environment("STATE_DIRECTORY").flatMap { $0.split(separator: ":").first.map(String.init) }
        let serviceRuntime = environment("RUNTIME_DIRECTORY").flatMap { $0.split(separator: ":").first.map(String.init) }
        let state: String
        let runtime: String
        if serviceState != nil || serviceRuntime != nil || isRoot {
            state = serviceState ?? "/var/lib/appliance"
            runtime = serviceRuntime ?? "/run/appliance"
        } else {
            state = ".appliance"
            runtime = ".appliance"
        }
        return DaemonPaths(state: state, runtime: runtime, media: state + "/media", recordings: state + "/recordings",
                           socket: environment("APPLIANCE_SOCKET") ?? runtime + "/control.sock")
    }

    /// Creates the directories that are missing (the state, runtime, media and recordings directories).
    func createDirectories() throws(SystemError) {
        for directory in [state, runtime, media, recordings, FileSystem.split(socket).directory] {
            try FileSystem.createDirectories(directory)
        }
    }
}
