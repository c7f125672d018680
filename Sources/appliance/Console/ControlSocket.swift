import HAL

/// Where the daemon listens for `appliance ctl` and other local clients, shared by both sides.
enum ControlSocket {
    /// Under /run (a tmpfs, gone at reboot: no stale socket survives a power cut); the unit's
    /// RuntimeDirectory=appliance makes the folder, owned by the service user.
    static let defaultPath = "/run/appliance/control.sock"

    /// `$APPLIANCE_SOCKET` when set (tests, a second daemon on a development machine), else the default.
    static var path: String {
        if let path = CurrentProcess.environment("APPLIANCE_SOCKET"), !path.isEmpty { return path }
        return defaultPath
    }
}
