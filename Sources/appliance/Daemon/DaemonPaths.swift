import HAL

/// Where the running appliance keeps things. Two layouts:
/// - the service (started by systemd: `$INVOCATION_ID` or `$NOTIFY_SOCKET` set, or `$STATE_DIRECTORY` /
///   `$RUNTIME_DIRECTORY` from StateDirectory= and RuntimeDirectory=): settings and recordings under
///   /var/lib/appliance, the media under /var/lib/appliance/media, the control socket under /run/appliance;
/// - a run from a terminal (root included: CI and dev boxes run as root, and `make run` must not write system
///   directories): everything under `./.appliance/` in the current directory, so a checkout keeps its own
///   state and `rm -rf .appliance` starts afresh.
/// Every directory can be given explicitly (`--media`, `--recordings`, `--state`, `--socket`).
///
/// The instance lock is in one place whatever `--state` says, so `appliance hal` finds any running daemon:
/// `$APPLIANCE_LOCK` if set; else /run/appliance/appliance.lock for the service or root; else
/// `$XDG_RUNTIME_DIR/appliance.lock`, or /tmp/appliance-UID.lock without one.
struct DaemonPaths: Hashable, Sendable {
    var state: String
    var runtime: String
    var media: String
    var recordings: String
    var socket: String
    var lock: String

    var settings: String { state + "/settings.json" }

    /// `lock` nil: the lock beside the runtime files (tests that assemble in-process).
    init(state: String, runtime: String, media: String, recordings: String, socket: String, lock: String? = nil) {
        self.state = state
        self.runtime = runtime
        self.media = media
        self.recordings = recordings
        self.socket = socket
        self.lock = lock ?? runtime + "/appliance.lock"
    }

    /// The defaults for this process (see the type's comment).
    static func defaults(environment: (String) -> String? = CurrentProcess.environment,
                         isRoot: Bool = CurrentProcess.isRoot,
                         userID: UInt32 = CurrentProcess.userID) -> DaemonPaths {
        let serviceState = environment("STATE_DIRECTORY").flatMap { $0.split(separator: ":").first.map(String.init) }
        let serviceRuntime = environment("RUNTIME_DIRECTORY").flatMap { $0.split(separator: ":").first.map(String.init) }
        let underSystemd = environment("INVOCATION_ID") != nil || environment("NOTIFY_SOCKET") != nil
        let state: String
        let runtime: String
        if serviceState != nil || serviceRuntime != nil || underSystemd {
            state = serviceState ?? "/var/lib/appliance"
            runtime = serviceRuntime ?? "/run/appliance"
        } else {
            state = ".appliance"
            runtime = ".appliance"
        }
        return DaemonPaths(state: state, runtime: runtime, media: state + "/media", recordings: state + "/recordings",
                           socket: environment("APPLIANCE_SOCKET") ?? runtime + "/control.sock",
                           lock: lockPath(environment: environment, isRoot: isRoot, userID: userID))
    }

    /// The one instance lock (see the type's comment).
    static func lockPath(environment: (String) -> String? = CurrentProcess.environment,
                         isRoot: Bool = CurrentProcess.isRoot,
                         userID: UInt32 = CurrentProcess.userID) -> String {
        if let explicit = environment("APPLIANCE_LOCK"), !explicit.isEmpty { return explicit }
        let service = environment("INVOCATION_ID") != nil || environment("NOTIFY_SOCKET") != nil
            || environment("RUNTIME_DIRECTORY") != nil
        if isRoot || service {
            let runtime = environment("RUNTIME_DIRECTORY").flatMap { $0.split(separator: ":").first.map(String.init) }
            return (runtime ?? "/run/appliance") + "/appliance.lock"
        }
        if let user = environment("XDG_RUNTIME_DIR"), !user.isEmpty { return user + "/appliance.lock" }
        return "/tmp/appliance-\(userID).lock"
    }

    /// Creates the directories that are missing (the state, runtime, media and recordings directories, and
    /// the lock's).
    func createDirectories() throws(SystemError) {
        for directory in [state, runtime, media, recordings, FileSystem.split(socket).directory,
                          FileSystem.split(lock).directory] {
            try FileSystem.createDirectories(directory)
        }
    }
}
