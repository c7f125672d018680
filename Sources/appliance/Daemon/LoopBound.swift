/// A reference that belongs to the control loop's thread, carried through a `@Sendable` closure that
/// `loop.post`s work back onto that thread: only the posted work touches `value`.
struct LoopBound<Value: AnyObject>: @unchecked Sendable {
    weak var value: Value?
    init(_ value: Value) { self.value = value }
}
