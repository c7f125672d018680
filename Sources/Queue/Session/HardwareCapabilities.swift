import HAL

/// What the devices under the session can do, as the PCM layer reports it (`PCMCapabilities` of the
/// playback device, and of the capture device per input port: a port may be narrower, e.g. a headset
/// mic that only runs at 8 kHz).
public struct HardwareCapabilities: Hashable, Sendable {
    public var output: PCMCapabilities
    public var inputs: [CodecInput: PCMCapabilities]

    public init(output: PCMCapabilities, inputs: [CodecInput: PCMCapabilities] = [:]) {
        self.output = output
        self.inputs = inputs
    }

    /// The settings a session gets for `preferences`, starting from `current`: the supported rate nearest
    /// the preferred one and the period nearest the preferred duration at that rate, over every device the
    /// session uses (output and/or the input port).
    ///
    /// "Nearest" as alsa-lib's `snd_pcm_hw_param_set_near` (src/pcm/pcm_params.c) decides it: the value
    /// at or above the request unless the one below is strictly nearer, so a tie goes up.
    func grant(_ preferences: HardwarePreferences, output usesOutput: Bool, input: CodecInput?,
               current: HardwareSettings) throws(SessionError) -> HardwareSettings {
        var devices: [PCMCapabilities] = usesOutput ? [output] : []
        if let input {
            guard let capture = inputs[input] else { throw .inputUnavailable(input) }
            devices.append(capture)
        }
        guard !devices.isEmpty else { return current }
        let wanted = preferences.sampleRate ?? current.sampleRate
        guard let rate = Self.rate(nearest: wanted, on: devices) else {
            throw .noCommonSampleRate(devices.map(\.description))
        }
        let frames: Int
        if let duration = preferences.ioBufferDuration {
            // Round to the nearest frame.
            frames = Int((duration.nanoseconds * Int64(rate) + 500_000_000) / 1_000_000_000)
        } else {
            frames = current.ioBufferFrames
        }
        let lowest = devices.map(\.periodFrames.lowerBound).max() ?? 1
        let highest = max(devices.map(\.periodFrames.upperBound).min() ?? lowest, lowest)
        return HardwareSettings(sampleRate: rate, ioBufferFrames: min(max(frames, lowest), highest),
                                outputChannels: output.channels.upperBound,
                                inputChannels: input.flatMap { inputs[$0]?.channels.upperBound } ?? 0)
    }

    /// The rate every device runs at that is nearest `wanted`: one of the listed standard rates (all
    /// devices' lists in common), or, when none lists any, `wanted` clamped to the ranges' overlap.
    private static func rate(nearest wanted: Int, on devices: [PCMCapabilities]) -> Int? {
        guard let lowest = devices.map(\.rates.lowerBound).max(), let highest = devices.map(\.rates.upperBound).min(),
              lowest <= highest else { return nil }
        let listed = devices.map(\.standardRates).filter { !$0.isEmpty }
        guard let first = listed.first else { return min(max(wanted, lowest), highest) }
        let common = listed.dropFirst().reduce(first) { common, more in common.filter(more.contains) }
        return nearest(to: wanted, in: common.filter { (lowest...highest).contains($0) })
    }

    static func nearest(to wanted: Int, in rates: [Int]) -> Int? {
        let above = rates.filter { $0 >= wanted }.min()
        let below = rates.filter { $0 < wanted }.max()
        switch (below, above) {
        case let (below?, above?): return wanted - below < above - wanted ? below : above
        case let (below, above): return above ?? below
        }
    }
}
