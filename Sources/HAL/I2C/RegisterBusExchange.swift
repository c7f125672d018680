/// One transfer on the wire as a register bus carried it: the outcome in register terms and the bytes in
/// `i2ctransfer` notation. A retried transfer is several exchanges; a paged chip's page select is one of
/// its own. Buses return these with every transfer (see `RegisterBusReply`), so a caller can show what went
/// over the wire without watching the bus.
public struct RegisterBusExchange: Hashable, Sendable {
    /// What happened: the write acknowledged, the value read, or the failure.
    public var event: RegisterBusEvent
    /// The bytes as the controller sent them.
    public var wire: I2CWireTransfer

    public init(_ event: RegisterBusEvent, wire: I2CWireTransfer) {
        self.event = event
        self.wire = wire
    }
}

/// What one register transfer did: the bytes it read (empty for a write) and every exchange it took.
public struct RegisterBusReply: Hashable, Sendable {
    /// The bytes read, in wire order: a register's value bytes, or a block's bytes.
    public var bytes: [UInt8]
    /// Every exchange on the wire, in order, failed attempts and page selects included.
    public var exchanges: [RegisterBusExchange]

    public init(bytes: [UInt8], exchanges: [RegisterBusExchange]) {
        self.bytes = bytes
        self.exchanges = exchanges
    }
}
