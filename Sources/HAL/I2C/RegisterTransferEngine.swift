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
/// retries and errors as the hardware backend: only the transport differs.
struct RegisterTransferEngine: Sendable {
    let target: I2CTarget
    let layout: RegisterLayout
    let retry: I2CRetryPolicy

    func read(_ register: RegisterAddress, on transport: some I2CTransport) throws(I2CError) -> RegisterValue {
        try layout.validate(register: register)
        guard let wire = layout.readTransfer(register: register) else {
            throw .notReadable(target, register: register, layout: layout)
        }
        let bytes = try perform(wire, as: .read(reg: register), on: transport)
        return layout.value(fromReadBytes: bytes)
    }

    func write(_ register: RegisterAddress, _ value: RegisterValue, on transport: some I2CTransport) throws(I2CError) {
        try layout.validate(register: register)
        try layout.validate(value: value, register: register)
        _ = try perform(layout.writeTransfer(register: register, value: value),
                        as: .write(reg: register, value: value), on: transport)
    }

    func readBlock(from register: RegisterAddress, count: Int, on transport: some I2CTransport) throws(I2CError) -> [UInt8] {
        guard layout.supportsBlockReads else {
            throw .blockOutOfRange(from: register, count: count, layout: layout)
        }
        try layout.validateBlock(from: register, count: count)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        for wire in layout.blockReadTransfers(from: register, count: count) {
            guard case .smbusReadI2CBlock(let command, let length) = wire else { continue }
            bytes += try perform(wire, as: .readBlock(reg: RegisterAddress(command), count: length), on: transport)
        }
        return bytes
    }

    /// Tries `wire` up to `retry.attempts` times while the error is transient; EINTR is retried without
    /// counting. Checks that a read returned every byte it asked for.
    func perform(_ wire: I2CWireTransfer, as transfer: RegisterTransfer, on transport: some I2CTransport) throws(I2CError) -> [UInt8] {
        var attempts = 0
        while true {
            attempts += 1
            let failure: Errno
            do throws(I2CTransportFailure) {
                let bytes = try transport.perform(wire)
                if bytes.count == wire.bytesRead { return bytes }
                failure = .io     // a short read: the device stopped sending
            } catch {
                switch error {
                case .registerMap(let violation): throw .rejectedByRegisterMap(target, transfer, violation)
                case .bus(let busError): failure = busError
                }
            }
            if failure == .interrupted {
                attempts -= 1
                continue
            }
            guard I2CRetryPolicy.isTransient(failure), attempts < retry.attempts else {
                throw .transferFailed(target, transfer, failure, attempts: attempts)
            }
            retry.clock.sleep(for: retry.delay)
        }
    }
}
