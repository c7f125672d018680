import CI2C

/// The register bus of one chip on `/dev/i2c-N` (Linux i2c-dev).
///
/// SMBus transfers wherever the layout allows (8+8 and 7+9 are SMBus "byte data" on the wire, and
/// auto-increment block reads are SMBus "I2C block reads"), so SMBus-only adapters and the test rig's
/// i2c-stub work; 16+16 uses plain I2C messages (I2C_RDWR), because no SMBus transfer has a two-byte
/// command. Owns the file descriptor; closes it on deinit. Thread-safe as far as the kernel is: the address
/// is selected once, and i2c-dev serializes transfers on an adapter.
public final class I2CRegisterBus: RegisterBus, I2CTransport, @unchecked Sendable {
    public let target: I2CTarget
    public let layout: RegisterLayout
    private let device: FileDescriptor
    private var descriptor: Int32 { device.rawValue }
    private let engine: RegisterTransferEngine

    /// Transfers tried again after a transient failure (NACK, bus error) since the bus was opened.
    public var retryCount: Int { engine.retries.value }

    /// Opens `/dev/i2c-<bus>`, selects `address` (I2C_SLAVE; with `force`, I2C_SLAVE_FORCE, which takes the
    /// address even from a bound kernel driver: only for recovery) and checks that the adapter can make
    /// the layout's transfers.
    public convenience init(bus: Int, address: I2CAddress, layout: RegisterLayout, force: Bool = false,
                            retry: I2CRetryPolicy = .standard) throws(I2CError) {
        let target = I2CTarget(bus: bus, address: address)
        try self.init(path: target.devicePath, target: target, layout: layout, force: force, retry: retry)
    }

    /// Opens `path` as the adapter of `target` (tests open files that are not adapters).
    init(path: String, target: I2CTarget, layout: RegisterLayout, force: Bool, retry: I2CRetryPolicy) throws(I2CError) {
        device = try Self.openDevice(path, target, layout: layout, force: force)
        self.target = target
        self.layout = layout
        engine = RegisterTransferEngine(target: target, layout: layout, retry: retry)
    }

    /// Adopts an open descriptor whose address is already selected (tests use /dev/null).
    init(adopting descriptor: Int32, target: I2CTarget, layout: RegisterLayout, retry: I2CRetryPolicy) {
        device = FileDescriptor(adopting: descriptor, path: target.devicePath)
        self.target = target
        self.layout = layout
        engine = RegisterTransferEngine(target: target, layout: layout, retry: retry)
    }

    public func perform(_ transfer: RegisterTransfer) throws(I2CError) -> RegisterBusReply {
        try engine.perform(transfer, on: self)
    }

    // MARK: i2c-dev

    func perform(_ transfer: I2CWireTransfer) throws(I2CTransportFailure) -> [UInt8] {
        switch transfer {
        case .smbusWriteByteData(let command, let value):
            try Self.check(i2c_smbus_write_byte_data(descriptor, command, value))
            return []
        case .smbusReadByteData(let command):
            let result = try Self.check(i2c_smbus_read_byte_data(descriptor, command))
            return [UInt8(truncatingIfNeeded: result)]
        case .smbusReadI2CBlock(let command, let count):
            var buffer = [UInt8](repeating: 0, count: Int(I2C_SMBUS_BLOCK_MAX))
            let result = buffer.withUnsafeMutableBufferPointer { bytes in
                i2c_smbus_read_i2c_block_data(descriptor, command, UInt8(count), bytes.baseAddress)
            }
            let length = try Self.check(result)
            return Array(buffer.prefix(min(Int(length), count)))
        case .write(let bytes):
            let result = bytes.withUnsafeBufferPointer { out in
                ci2c_write_read(descriptor, UInt16(target.address.rawValue), out.baseAddress, UInt16(out.count), nil, 0)
            }
            try Self.check(result)
            return []
        case .writeThenRead(let bytes, let count):
            var buffer = [UInt8](repeating: 0, count: count)
            let result = bytes.withUnsafeBufferPointer { out in
                buffer.withUnsafeMutableBufferPointer { into in
                    ci2c_write_read(descriptor, UInt16(target.address.rawValue), out.baseAddress,
                                    UInt16(out.count), into.baseAddress, UInt16(count))
                }
            }
            try Self.check(result)
            return buffer
        }
    }

    /// libi2c 4.x and the shim return `-errno`; libi2c 3.x returned -1 and left `errno` set.
    @discardableResult
    private static func check(_ result: Int32) throws(I2CTransportFailure) -> Int32 {
        guard result < 0 else { return result }
        throw .bus(result == -1 ? .current : Errno(-result))
    }

    private static func openDevice(_ path: String, _ target: I2CTarget, layout: RegisterLayout,
                                   force: Bool) throws(I2CError) -> FileDescriptor {
        let device: FileDescriptor
        do throws(SystemError) {
            device = try FileDescriptor(opening: path, .readWrite)
        } catch {
            throw .openFailed(bus: target.bus, error.errno)
        }
        let selected = ci2c_select_address(device.rawValue, UInt32(target.address.rawValue), force ? 1 : 0)
        if selected < 0 {
            let error = Errno(-selected)
            throw .addressUnavailable(target, error, driver: error == .busy ? kernelDriver(of: target) : nil)
        }
        if let missing = missingFunctionality(device.rawValue, layout: layout) {
            throw .adapterLacks(target, layout: layout, missing: missing)
        }
        return device
    }

    /// The capability the adapter lacks for `layout`, or nil (also when it does not say: I2C_FUNCS failing
    /// is left to the transfers).
    private static func missingFunctionality(_ descriptor: Int32, layout: RegisterLayout) -> String? {
        var functions: UInt = 0
        guard ci2c_functionality(descriptor, &functions) == 0 else { return nil }
        let needed: [(UInt, String)] = switch layout {
        case .reg8Value8:
            [(CI2C_FUNC_WRITE_BYTE_DATA, "SMBus write byte data"), (CI2C_FUNC_READ_BYTE_DATA, "SMBus read byte data")]
        case .reg7Value9:
            [(CI2C_FUNC_WRITE_BYTE_DATA, "SMBus write byte data")]
        case .reg16Value16:
            [(CI2C_FUNC_PLAIN_I2C, "plain I2C (I2C_RDWR)")]
        case .reg8Value8AutoIncrement:
            [(CI2C_FUNC_WRITE_BYTE_DATA, "SMBus write byte data"), (CI2C_FUNC_READ_BYTE_DATA, "SMBus read byte data"),
             (CI2C_FUNC_READ_I2C_BLOCK, "SMBus I2C block read")]
        }
        return needed.first { functions & $0.0 == 0 }?.1
    }

    /// The kernel driver bound to the device at `target` (`wm8960`), read from
    /// `/sys/bus/i2c/devices/<bus>-00<addr>/driver`, a link to `.../drivers/<name>`.
    static func kernelDriver(of target: I2CTarget, devices: String = "/sys/bus/i2c/devices") -> String? {
        let link = "\(devices)/\(target.sysfsName)/driver"
        return FileSystem.linkTarget(of: link)?.split(separator: "/").last.map(String.init)
    }
}
