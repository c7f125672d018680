import Synchronization

/// Why one wire transfer failed: the bus reported an error, or (twin only) the chip's register map
/// refused it.
enum I2CTransportFailure: Error {
    case bus(Errno)
    case registerMap(RegisterMapViolation)
}

/// Carries wire transfers to one device: i2c-dev on Linux, the chip model in the twin.
protocol I2CTransport: AnyObject {
    /// Performs one transfer and returns the bytes read (empty for writes).
    func perform(_ transfer: I2CWireTransfer) throws(I2CTransportFailure) -> [UInt8]
}

/// The register-level path both buses share, so the twin exercises the same validation, encoding,
/// retries and errors as the hardware backend: only the transport differs. Every exchange it makes comes
/// back in the reply, so what went over the wire is a result, not something to watch for.
struct RegisterTransferEngine: Sendable {
    let target: I2CTarget
    let layout: RegisterLayout
    let retry: I2CRetryPolicy
    /// Retries made so far (tries after a transient failure), for `stats`.
    let retries = I2CRetryCount()

    /// Validates `transfer`, encodes it for the layout and carries it out on `transport`.
    func perform(_ transfer: RegisterTransfer, on transport: some I2CTransport) throws(I2CError) -> RegisterBusReply {
        switch transfer {
        case .read(let register):
            try layout.validate(register: register)
            guard let wire = layout.readTransfer(register: register) else {
                throw .notReadable(target, register: register, layout: layout)
            }
            return try carry(wire, as: transfer, on: transport)
        case .write(let register, let value):
            try layout.validate(register: register)
            try layout.validate(value: value, register: register)
            return try carry(layout.writeTransfer(register: register, value: value), as: transfer, on: transport)
        case .readBlock(let register, let count):
            guard layout.supportsBlockReads else {
                throw .blockOutOfRange(from: register, count: count, layout: layout)
            }
            try layout.validateBlock(from: register, count: count)
            var reply = RegisterBusReply(bytes: [], exchanges: [])
            reply.bytes.reserveCapacity(count)
            for wire in layout.blockReadTransfers(from: register, count: count) {
                guard case .smbusReadI2CBlock(let command, let length) = wire else { continue }
                let chunk = try carry(wire, as: .readBlock(reg: RegisterAddress(command), count: length), on: transport)
                reply.bytes += chunk.bytes
                reply.exchanges += chunk.exchanges
            }
            return reply
        }
    }

    /// Tries `wire` up to `retry.attempts` times while the error is transient; EINTR is retried without
    /// counting. Checks that a read returned every byte it asked for.
    private func carry(_ wire: I2CWireTransfer, as transfer: RegisterTransfer,
                       on transport: some I2CTransport) throws(I2CError) -> RegisterBusReply {
        var exchanges: [RegisterBusExchange] = []
        var attempts = 0
        while true {
            attempts += 1
            let failure: Errno
            do throws(I2CTransportFailure) {
                let bytes = try transport.perform(wire)
                if bytes.count == wire.bytesRead {
                    exchanges.append(RegisterBusExchange(completed(transfer, bytes: bytes), wire: wire))
                    return RegisterBusReply(bytes: bytes, exchanges: exchanges)
                }
                failure = .io     // a short read: the device stopped sending
            } catch {
                switch error {
                case .registerMap(let violation): throw .rejectedByRegisterMap(target, transfer, violation)
                case .bus(let busError): failure = busError
                }
            }
            exchanges.append(RegisterBusExchange(.failed(transfer, failure), wire: wire))
            if failure == .interrupted {
                attempts -= 1
                continue
            }
            guard I2CRetryPolicy.isTransient(failure), attempts < retry.attempts else {
                throw .transferFailed(target, transfer, failure, attempts: attempts)
            }
            retries.add()
            retry.clock.sleep(for: retry.delay)
        }
    }

    /// The event of an acknowledged `transfer` that read `bytes`.
    private func completed(_ transfer: RegisterTransfer, bytes: [UInt8]) -> RegisterBusEvent {
        switch transfer {
        case .write(let reg, let value): .write(reg: reg, value: value)
        case .read(let reg): .read(reg: reg, value: layout.value(fromReadBytes: bytes))
        case .readBlock(let reg, _): .readBlock(reg: reg, bytes: bytes)
        }
    }
}

/// How many transfers a bus has tried again after a transient failure (a NACK while the chip settles, a
/// lost arbitration): a healthy bus says 0; a growing count points at wiring or supplies.
final class I2CRetryCount: Sendable {
    private let count = Atomic<Int>(0)
    func add() { count.wrappingAdd(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}
