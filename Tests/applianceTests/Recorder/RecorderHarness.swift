import Codec8_24
import Foundation
import HAL
import Synchronization
import TestSupport
@testable import Queue
@testable import appliance

/// The recorder as the daemon runs it, over the real engine and input queue, with a SimulatedPCM capture
/// generating a known signal; the test drives the capture period by period (`CaptureLoop.period()`, the
/// code the capture thread runs), hands each period to the writer thread and turns the control loop.
final class RecorderHarness {
    static let rate = 48_000
    static let period = 480   // 10 ms

    /// The generator's 24-bit sample for frame `n`, channel `c`: a 1 kHz sine at -6 dBFS, the right
    /// channel a quarter period ahead, rounded to 24 bits (full scale 2^23 - 1).
    static func sample(_ n: Int64, _ c: Int) -> Int32 {
        Int32((0.5 * sin(2 * Double.pi * 1000 * Double(n) / Double(rate) + Double(c) * Double.pi / 2) * 8_388_607).rounded())
    }

    let clock = ManualClock(skipsSleeps: true)
    let directory: String
    let engine: RenderEngine
    let loop: ControlLoop
    let service: RecordingService
    let settings: LiveSettings
    let events = Locked<[String]>([])
    let led = Locked<[Bool]>([])
    /// What the free-space probe reports (nil: the real statvfs of the directory).
    let fakeFree = Locked<Int64?>(nil)

    /// A recorder whose settings keep `preRollSeconds` of pre-roll, the one change the standby tests make.
    convenience init(preRollSeconds: Double) throws {
        var settings = ApplianceSettings()
        settings.recording.preRollSeconds = preRollSeconds
        try self.init(settings: settings)
    }

    init(directory: String? = nil, settings: ApplianceSettings = ApplianceSettings(),
         signal: @escaping @Sendable (Int64, Int) -> Int32 = RecorderHarness.sample) throws {
        let owned = directory ?? NSTemporaryDirectory() + "recorder-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: owned, withIntermediateDirectories: true)
        self.directory = owned
        let hardware = SimulatedPCMHardware(name: "sim", formats: [.s32LE], rates: [Self.rate], channels: 2...2,
                                            periodFrames: 16...4096, periodStep: 16, periodCounts: 2...8)
        // S32 capture: the 24-bit value sits in the top bits (v << 8), as an I2S codec delivers it.
        let generator = SimulatedPCM.Capture.generator { position, bytes in
            for i in 0..<(bytes.count / 8) {
                for c in 0..<2 {
                    let v = UInt32(bitPattern: signal(position + Int64(i), c) << 8)
                    for b in 0..<4 { bytes[8 * i + 4 * c + b] = UInt8((v >> (8 * b)) & 0xFF) }
                }
            }
        }
        let pcm = try SimulatedPCM(hardware: hardware, direction: .capture,
                                   configuration: PCMConfiguration(format: .s32LE, rate: Self.rate, channels: 2,
                                                                   periodFrames: Self.period, periodCount: 4),
                                   clock: clock, capture: generator)
        engine = try RenderEngine(output: nil, input: pcm,
                                  configuration: RenderEngine.Configuration(softwareEQ: false, limiter: false, dither: false,
                                                                            realtimePriority: nil, locksMemory: false))
        loop = try ControlLoop(clock: clock)
        self.settings = LiveSettings(settings)
        let events = self.events, led = self.led, fakeFree = self.fakeFree
        service = RecordingService(
            directory: owned, loop: loop, host: engine, settings: self.settings,
            events: { event in events.withLock { $0.append(event.line) } },
            recordLED: { on in led.withLock { $0.append(on) } },
            storage: RecordingService.Storage(
                availableBytes: { path in fakeFree.withLock { $0 } ?? (try? FileSystem.space(at: path))?.availableBytes },
                wallClock: { LocalDateTime(year: 2026, month: 11, day: 24, hour: 19, minute: 45, second: 3) }))
        engine.capture!.prepareToStart()
    }

    func removeDirectory() { try? FileManager.default.removeItem(atPath: directory) }

    /// Captures `count` periods; after each the writer thread takes what was captured and the loop runs
    /// what it posted.
    func periods(_ count: Int) throws {
        for _ in 0..<count {
            try engine.capture!.period()
            service.deliverCaptured()
            loop.turn(maximumWait: .zero)
        }
    }

    /// Runs what the writer thread posted (after a stop or a limit).
    func settle() {
        for _ in 0..<3 { loop.turn(maximumWait: .zero) }
    }

    var eventLines: [String] { events.withLock { $0 } }

    /// A power cut, as the disk would hold the recording `name` now: its bytes copied into `cut/` (a fresh
    /// folder for `RecordingRecovery`) without the last `lostBytes`. Returns the copy's path.
    func copyCutByPowerLoss(_ name: String, losing lostBytes: Int) throws -> String {
        let cut = directory + "/cut"
        try FileManager.default.createDirectory(atPath: cut, withIntermediateDirectories: true)
        let copy = "\(cut)/\(name)"
        try FileManager.default.copyItem(atPath: file(name), toPath: copy)
        let size = try FileManager.default.attributesOfItem(atPath: copy)[.size] as? Int ?? 0
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: copy))
        try handle.truncate(atOffset: UInt64(max(0, size - lostBytes)))
        try handle.close()
        return copy
    }

    func file(_ name: String) -> String { directory + "/" + name }

    /// The recordings in the directory, sorted.
    var files: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted() }
}

/// A value shared with the service's closures (which may run on the writer thread).
final class Locked<Value: Sendable>: Sendable {
    private let value: Mutex<Value>
    init(_ value: Value) { self.value = Mutex(value) }
    func withLock<T>(_ body: (inout Value) -> T) -> T { value.withLock { body(&$0) } }
}

/// The generator's frames `range` as sox reads them back from a 24-bit file (v << 8), interleaved stereo.
func expectedSamples(_ range: Range<Int64>) -> [Int32] {
    range.flatMap { n in [RecorderHarness.sample(n, 0) << 8, RecorderHarness.sample(n, 1) << 8] }
}
