/// One value per channel for up to ``SampleConversion/maxChannels`` channels, stored inline so per-channel
/// DSP state lives inside its value type: no allocation, nothing for the render thread to free.
@frozen
public struct ChannelValues<Element> {
    @usableFromInline
    var storage: (Element, Element, Element, Element, Element, Element, Element, Element)

    @inlinable
    public init(repeating value: Element) {
        storage = (value, value, value, value, value, value, value, value)
    }

    /// The value for `channel` (0...7). Out-of-range channels trap, as an array would.
    @inlinable
    public subscript(channel: Int) -> Element {
        get {
            precondition(channel >= 0 && channel < 8, "channel out of range")
            return withUnsafeBytes(of: storage) { $0.assumingMemoryBound(to: Element.self)[channel] }
        }
        set {
            precondition(channel >= 0 && channel < 8, "channel out of range")
            withUnsafeMutableBytes(of: &storage) { $0.assumingMemoryBound(to: Element.self)[channel] = newValue }
        }
    }
}

extension ChannelValues: Sendable where Element: Sendable {}
extension ChannelValues: Equatable where Element: Equatable {
    @inlinable
    public static func == (lhs: Self, rhs: Self) -> Bool {
        (0..<8).allSatisfy { lhs[$0] == rhs[$0] }
    }
}
