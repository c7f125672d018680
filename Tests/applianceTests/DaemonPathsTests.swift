import Testing
@testable import appliance

/// Where `appliance run` keeps things: the service layout only under systemd, never for a root shell (CI and
/// dev boxes run as root; `make run` must not write system directories), and one instance lock whatever
/// `--state` says. Expected paths: the layout documented in README.md "Run the appliance" and `run --help`.
struct DaemonPathsTests {
    private func environment(_ values: [String: String]) -> (String) -> String? { { values[$0] } }

    @Test func aRootShellKeepsEverythingInTheCheckout() {
        let paths = DaemonPaths.defaults(environment: environment([:]), isRoot: true, userID: 0)
        #expect(paths.state == ".appliance")
        #expect(paths.recordings == ".appliance/recordings")
        #expect(paths.socket == ".appliance/control.sock")
        #expect(paths.lock == "/run/appliance/appliance.lock")
    }

    /// systemd sets INVOCATION_ID for every unit it starts and NOTIFY_SOCKET for Type=notify (systemd.exec(5),
    /// sd_notify(3)).
    @Test(arguments: ["INVOCATION_ID", "NOTIFY_SOCKET"])
    func underSystemdTheServiceLayoutIsUsed(variable: String) {
        let paths = DaemonPaths.defaults(environment: environment([variable: "x"]), isRoot: true, userID: 0)
        #expect(paths.state == "/var/lib/appliance")
        #expect(paths.socket == "/run/appliance/control.sock")
        #expect(paths.lock == "/run/appliance/appliance.lock")
    }

    @Test func aUsersLockIsInTheirRuntimeDirectoryOrTmp() {
        #expect(DaemonPaths.lockPath(environment: environment(["XDG_RUNTIME_DIR": "/run/user/1000"]), isRoot: false,
                                     userID: 1000) == "/run/user/1000/appliance.lock")
        #expect(DaemonPaths.lockPath(environment: environment([:]), isRoot: false, userID: 1000)
                == "/tmp/appliance-1000.lock")
        #expect(DaemonPaths.lockPath(environment: environment(["APPLIANCE_LOCK": "/x/y.lock"]), isRoot: true, userID: 0)
                == "/x/y.lock")
    }
}
