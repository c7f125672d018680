import Codec8_24
import Foundation
import Synchronization
import Testing
@testable import HAL

/// A private temporary directory, removed when the value goes away.
final class TemporaryDirectory {
    let path: String

    init() {
        path = NSTemporaryDirectory() + "pcm-tests-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ name: String) -> String { path + "/" + name }
}

/// Deterministic test frames: `count` bytes from a seeded generator.
func seededBytes(_ count: Int, seed: UInt64) -> [UInt8] {
    var generator = NoiseGenerator(seed: seed)
    return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
}

/// Splits `total` into chunk sizes from a seeded generator (1...maxChunk each).
func seededChunks(total: Int, maxChunk: Int, seed: UInt64) -> [Int] {
    var generator = NoiseGenerator(seed: seed)
    var chunks: [Int] = []
    var left = total
    while left > 0 {
        let chunk = min(left, Int.random(in: 1...maxChunk, using: &generator))
        chunks.append(chunk)
        left -= chunk
    }
    return chunks
}

/// Writes `bytes` (whole frames) to `device` in chunks of `frames` sizes; returns frames written.
func writeInChunks(_ device: any PCMDevice, _ bytes: [UInt8], chunks: [Int]) throws -> Int {
    let bytesPerFrame = device.parameters.bytesPerFrame
    var offset = 0
    var written = 0
    for chunk in chunks {
        let end = offset + chunk * bytesPerFrame
        let count = try bytes[offset..<end].withUnsafeBytes { try device.write($0) }
        written += count
        offset = end
    }
    return written
}

/// The `PCMError` that `body` throws, recorded as a test issue when it throws none (Swift Testing 6.0's
/// `#expect(throws:)` does not return the error).
func pcmError(sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) -> PCMError? {
    do {
        try body()
        Issue.record("expected a PCMError, none was thrown", sourceLocation: sourceLocation)
    } catch let error as PCMError {
        return error
    } catch {
        Issue.record("expected a PCMError, got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}

/// A manual clock that counts how often a thread went to sleep on it, so a test can advance time
/// exactly once per blocked wait of the thread under test.
final class SleepCountingClock: MonotonicClock, @unchecked Sendable {
    private let clock = ManualClock()
    private let entries = Atomic<Int>(0)

    var now: Timestamp { clock.now }
    var sleeps: Int { entries.load(ordering: .sequentiallyConsistent) }

    func advance(by duration: Duration) { clock.advance(by: duration) }

    func sleep(until deadline: Timestamp) {
        entries.wrappingAdd(1, ordering: .sequentiallyConsistent)
        clock.sleep(until: deadline)
    }
}
