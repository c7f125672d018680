extension UnsafeRawPointer {
    /// The byte at `offset`; a raw load, valid whatever type the memory is bound to.
    @inline(__always)
    func byte(at offset: Int) -> UInt8 { load(fromByteOffset: offset, as: UInt8.self) }
}
