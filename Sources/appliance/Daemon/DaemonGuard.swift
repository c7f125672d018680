import HAL

/// Commands that open the codec or the PCM themselves (`appliance hal ...`, `appliance codec --hardware ...`)
/// would fight a running daemon for the device: they check its instance lock first and refuse, naming the
/// process; live changes go through the daemon's control socket (`appliance ctl`).
enum DaemonGuard {
    /// Whether `arguments` (without the program name) ask for direct hardware access.
    static func needsExclusiveHardware(_ arguments: [String]) -> Bool {
        guard let first = arguments.first else { return false }
        if arguments.contains("--help") || arguments.contains("-h") { return false }
        return first == "hal" || (first == "codec" && arguments.contains("--hardware"))
    }

    /// Why the command must not run now; nil when no daemon holds the lock at any default place.
    static func refusal(for arguments: [String], lockPaths: [String] = defaultLockPaths) -> String? {
        guard needsExclusiveHardware(arguments) else { return nil }
        for path in lockPaths {
            if let holder = InstanceLock.holder(of: path) {
                return "the appliance is already running (\(holder)) and owns the codec and the PCM; "
                    + "stop it first (systemctl stop appliance), or change things through it with 'appliance ctl'"
            }
        }
        return nil
    }

    /// Where a daemon's lock can be: the one place `run` takes it whatever its `--state`
    /// (`DaemonPaths.lockPath`), and the service's, for a user's `hal` beside the system daemon.
    static var defaultLockPaths: [String] {
        let own = DaemonPaths.lockPath()
        let service = DaemonPaths.lockPath(environment: { _ in nil }, isRoot: true)
        return own == service ? [own] : [own, service]
    }
}
