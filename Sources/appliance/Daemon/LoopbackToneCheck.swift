#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Codec8_24
import HAL
import Queue
import Synchronization

/// `selftest`'s signal check on a board that loops its output back to its input (the simulated board): a
/// 1 kHz sine at -12 dBFS peak is played through the engine and captured back. A sine's RMS is its peak
/// minus 3.01 dB (peak / sqrt 2), so it must come back at -15.05 dBFS RMS and at 1000 Hz.
enum LoopbackToneCheck {
    static let frequency = 1_000
    static let peakDBFS = -12.0
    /// Closed form: 20 log10(10^(-12/20) / sqrt 2) = -12 - 3.0103.
    static let expectedRMSDBFS = peakDBFS - 3.0103
    /// Captured frames analysed (0.2 s at 48 kHz) after `settleFrames` skipped (the fades and the loop's latency).
    static let analysedFrames = 9_600
    static let settleFrames = 14_400

    static func run(engine: RenderEngine, clock: any MonotonicClock) -> SelfTestCheck {
        let rate = engine.outputRate
        guard engine.inputRate == rate else {
            return SelfTestCheck(name: "loopback tone", passed: false, detail: "no capture at the output's rate")
        }
        let source = ToneSource(frequency: frequency, peak: pow(10, peakDBFS / 20))
        let sink = CaptureTap(capacity: settleFrames + analysedFrames)
        do {
            try engine.attach(sink)
            try engine.attach(source)
        } catch {
            engine.detach(sink)
            return SelfTestCheck(name: "loopback tone", passed: false, detail: "cannot attach the tone: \(error)")
        }
        // Wait for the frames (they come at the device's pace: about 0.5 s), at most 5 s.
        let deadline = clock.now + .seconds(5)
        while !sink.isFull && clock.now < deadline { clock.sleep(until: clock.now + .milliseconds(20)) }
        engine.detach(source)
        engine.detach(sink)
        guard sink.isFull else {
            return SelfTestCheck(name: "loopback tone", passed: false, detail: "nothing came back in 5 s")
        }
        let samples = Array(sink.samples[settleFrames...])
        let rms = (samples.reduce(0) { $0 + $1 * $1 } / Double(samples.count)).squareRoot()
        let levelDB = 20 * log10(max(rms, 1e-12))
        // The frequency from positive-going zero crossings: whole cycles between the first and the last one.
        var crossings: [Int] = []
        for index in 1..<samples.count where samples[index - 1] < 0 && samples[index] >= 0 { crossings.append(index) }
        let measuredHz = crossings.count < 2 ? 0
            : Double(crossings.count - 1) * Double(rate) / Double(crossings.last! - crossings.first!)
        let levelOK = abs(levelDB - expectedRMSDBFS) <= 0.5
        let frequencyOK = abs(measuredHz - Double(frequency)) <= Double(frequency) * 0.01
        let detail = "\(format(levelDB)) dBFS RMS at \(Int(measuredHz.rounded())) Hz "
            + "(expected \(format(expectedRMSDBFS)) dBFS at \(frequency) Hz)"
        return SelfTestCheck(name: "loopback tone", passed: levelOK && frequencyOK, detail: detail)
    }

    private static func format(_ value: Double) -> String {
        let tenths = (value * 10).rounded() / 10
        return "\(tenths)"
    }
}

/// One period of the sine, computed once (on the control thread) and played from the table on the render
/// thread: no allocation there.
final class ToneSource: RenderSource {
    let renderChannels = 2
    private let frequency: Int
    private let peak: Double
    private var table: [Fixed824] = []
    private var index = 0

    init(frequency: Int, peak: Double) {
        self.frequency = frequency
        self.peak = peak
    }

    func prepare(engineRate: Int, maximumFrames: Int) throws {
        // A whole number of cycles in the table: exact when the rate is a multiple of the frequency.
        let length = engineRate / gcd(engineRate, frequency)
        let cycles = frequency / gcd(engineRate, frequency)
        let step = 2 * Double.pi * Double(cycles) / Double(length)
        table = (0..<length).map { (n: Int) -> Fixed824 in Fixed824(peak * sin(step * Double(n))) }
        index = 0
    }

    func render(frames: Int, into buffer: UnsafeMutablePointer<Fixed824>, at time: RenderTime) -> Bool {
        table.withUnsafeBufferPointer { values in
            for frame in 0..<frames {
                let value = values[index]
                buffer[2 * frame] = value
                buffer[2 * frame + 1] = value
                index += 1
                if index == values.count { index = 0 }
            }
        }
        return true
    }

    private func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
}

/// Keeps the first `capacity` captured frames of the left channel, in a buffer made before attaching.
final class CaptureTap: CaptureSink, @unchecked Sendable {
    private let buffer: UnsafeMutablePointer<Double>
    private let capacity: Int
    private let filled = Atomic<Int>(0)

    init(capacity: Int) {
        self.capacity = capacity
        buffer = .allocate(capacity: capacity)
        buffer.initialize(repeating: 0, count: capacity)
    }

    deinit { buffer.deallocate() }

    func prepare(engineRate: Int, channels: Int, maximumFrames: Int) throws {}

    func capture(frames: Int, from samples: UnsafePointer<Fixed824>, channels: Int, at time: RenderTime) {
        var count = filled.load(ordering: .relaxed)
        for frame in 0..<frames where count < capacity {
            buffer[count] = Double(samples[frame * channels].raw) * (1.0 / 16_777_216.0)
            count += 1
        }
        filled.store(count, ordering: .releasing)
    }

    var isFull: Bool { filled.load(ordering: .acquiring) >= capacity }

    /// The captured samples (control thread, once full).
    var samples: [Double] { Array(UnsafeBufferPointer(start: buffer, count: filled.load(ordering: .acquiring))) }
}
