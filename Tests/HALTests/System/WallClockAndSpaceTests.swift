import Foundation
import Testing
@testable import HAL

/// The wall-clock and free-space wrappers against Foundation's own reading of the same kernel facts.
@Suite("Wall clock and free space")
struct WallClockAndSpaceTests {
    @Test func localTimeMatchesFoundationsCalendar() {
        // A fixed instant: 2026-11-24 19:45:03 UTC is 1,795,549,503 s after the epoch (date -d @1795549503 -u).
        let seconds: Int64 = 1_795_549_503
        let ours = WallClock.local(seconds)
        let parts = Calendar.current.dateComponents(in: TimeZone.current, from: Date(timeIntervalSince1970: TimeInterval(seconds)))
        #expect([ours.year, ours.month, ours.day, ours.hour, ours.minute, ours.second]
                == [parts.year, parts.month, parts.day, parts.hour, parts.minute, parts.second])
        #expect(abs(WallClock.secondsSinceEpoch - Int64(Date().timeIntervalSince1970)) <= 1)
    }

    @Test func freeSpaceMatchesFoundationAndAMissingPathIsAnError() throws {
        let ours = try FileSystem.space(at: "/")
        let theirs = try FileManager.default.attributesOfFileSystem(forPath: "/")
        let total = try #require((theirs[.systemSize] as? NSNumber)?.int64Value)
        #expect(ours.totalBytes == total)
        #expect(ours.availableBytes > 0 && ours.availableBytes <= ours.totalBytes)
        #expect(throws: SystemError.self) { try FileSystem.space(at: "/no/such/directory") }
    }
}
