/// What a device offers, read from its hardware-parameter space before anything is chosen: the list a
/// refusal quotes, and what a caller can use to pick a format it will be granted.
public struct PCMCapabilities: Hashable, Sendable, CustomStringConvertible {
    /// The formats we can drive that the device accepts.
    public var formats: [PCMSampleFormat]
    /// Other formats the device accepts, by ALSA name (S24_3LE, U8, ...), for the message only.
    public var otherFormats: [String]
    public var channels: ClosedRange<Int>
    public var rates: ClosedRange<Int>
    /// The common rates (8 kHz ... 192 kHz) inside `rates` that the device really accepts.
    public var standardRates: [Int]
    public var periodFrames: ClosedRange<Int>
    public var bufferFrames: ClosedRange<Int>
    public var canPause: Bool
    public var canResume: Bool

    public init(formats: [PCMSampleFormat], otherFormats: [String] = [], channels: ClosedRange<Int>,
                rates: ClosedRange<Int>, standardRates: [Int], periodFrames: ClosedRange<Int>,
                bufferFrames: ClosedRange<Int>, canPause: Bool, canResume: Bool) {
        self.formats = formats
        self.otherFormats = otherFormats
        self.channels = channels
        self.rates = rates
        self.standardRates = standardRates
        self.periodFrames = periodFrames
        self.bufferFrames = bufferFrames
        self.canPause = canPause
        self.canResume = canResume
    }

    /// The rates people recognise, for `standardRates`.
    public static let commonRates = [8000, 11025, 16000, 22050, 32000, 44100, 48000, 88200, 96000, 176400, 192000]

    public var description: String {
        let formatList = (formats.map(\.alsaName) + otherFormats).joined(separator: ", ")
        let rateList = standardRates.isEmpty
            ? "\(rates.lowerBound)-\(rates.upperBound) Hz"
            : standardRates.map(String.init).joined(separator: ", ") + " Hz"
                + (rates.lowerBound == rates.upperBound ? "" : " (range \(rates.lowerBound)-\(rates.upperBound))")
        let channelList = channels.lowerBound == channels.upperBound
            ? "\(channels.lowerBound)" : "\(channels.lowerBound)-\(channels.upperBound)"
        return "formats \(formatList.isEmpty ? "none" : formatList); rates \(rateList); channels \(channelList); "
            + "period \(periodFrames.lowerBound)-\(periodFrames.upperBound) frames; "
            + "buffer \(bufferFrames.lowerBound)-\(bufferFrames.upperBound) frames"
    }
}
