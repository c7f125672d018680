/// Test instrumentation: two C functions the render loop calls around the part of a period that must keep
/// the real-time rules (the sources and the chain), leaving out the device's own I/O. Plain C function
/// pointers, so calling them allocates nothing; nil in production.
struct RenderWindow: @unchecked Sendable {
    let open: @convention(c) () -> Void
    let close: @convention(c) () -> Void
}
