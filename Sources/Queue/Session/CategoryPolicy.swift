/// What a category (with its options) is allowed to do, as one table the coordinator consults: who may
/// sound together, whether system sounds mix in, whether the capture path opens.
///
/// From Apple's documentation: Audio Session Programming Guide Table B-1 (which categories interrupt
/// non-mixable audio, which allow input and output); AVAudioSession.Category.record ("silencing virtually
/// all output on the system, for as long as the session is active"); kAudioSessionCategory_PlayAndRecord
/// ("If you want to ensure that sounds such as Messages alerts do not play while your app is recording,
/// use the RecordAudio category instead": so system sounds mix with playAndRecord, not with record);
/// CategoryOptions.mixWithOthers (settable for playback and playAndRecord; "Other categories:
/// MixWithOthers defaults to false and cannot be changed") and .duckOthers ("only if the audio session
/// category is playAndRecord, playback, or multiRoute").
public struct CategoryPolicy: Hashable, Sendable, CustomStringConvertible {
    public let category: SessionCategory
    public let options: SessionCategoryOptions
    /// Sounds together with other sessions; a non-mixable session interrupts other non-mixable ones.
    public let isMixable: Bool
    public let playsOutput: Bool
    /// Opens the capture path (ADC, input queue) while active.
    public let usesInput: Bool
    /// Lowers the others' volume while active.
    public let ducksOthers: Bool
    /// Silences every other session's output while active (record).
    public let silencesOtherOutput: Bool
    /// System sounds may mix in while this session is active.
    public let allowsSystemSounds: Bool

    public init(_ category: SessionCategory, options: SessionCategoryOptions = []) throws(SessionError) {
        if !options.isEmpty, category != .playback, category != .playAndRecord {
            throw .optionsNotAllowed(category: category, options: options)
        }
        self.category = category
        self.options = options.contains(.duckOthers) ? options.union(.mixWithOthers) : options
        switch category {
        case .ambient:
            (isMixable, playsOutput, usesInput) = (true, true, false)
        case .soloAmbient:
            (isMixable, playsOutput, usesInput) = (false, true, false)
        case .playback:
            (isMixable, playsOutput, usesInput) = (self.options.contains(.mixWithOthers), true, false)
        case .record:
            (isMixable, playsOutput, usesInput) = (false, false, true)
        case .playAndRecord:
            (isMixable, playsOutput, usesInput) = (self.options.contains(.mixWithOthers), true, true)
        }
        ducksOthers = self.options.contains(.duckOthers)
        silencesOtherOutput = category == .record
        allowsSystemSounds = category != .record
    }

    public var description: String {
        "\(category) (\(options)): \(isMixable ? "mixable" : "non-mixable"), "
            + [playsOutput ? "output" : nil, usesInput ? "input" : nil].compactMap { $0 }.joined(separator: " + ")
    }
}
