import Testing
import Synchronization
@testable import HAL

/// sd-daemon(3): a line beginning "<N>" is logged by journald at priority N (3 err, 4 warning, 6 info).
struct ServiceLogTests {
    @Test func everyLineCarriesItsPriorityPrefix() {
        let written = Mutex<[String]>([])
        let log = ServiceLog(prefixed: true) { text in written.withLock { $0.append(text) } }
        log.error("codec did not answer")
        log.warning("settings file corrupt\nkept aside")
        log.info("ready")
        #expect(written.withLock { $0 } == ["<3>codec did not answer\n", "<4>settings file corrupt\n<4>kept aside\n", "<6>ready\n"])
    }

    @Test func aTerminalGetsPlainLines() {
        #expect(ServiceLog(prefixed: false) { _ in }.format(.error, "x") == "x\n")
    }
}
