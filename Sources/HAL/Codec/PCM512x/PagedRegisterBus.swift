/// A control port for a paged chip (PCM512x, TAS57xx, many TI codecs): register 0 of every page selects
/// the page, so a register is named by a virtual address `page * pageSize + register`. Each transfer
/// becomes a page-select write, only when the chip is on another page, then the transfer on the wire
/// bus (8-bit registers and values).
///
/// The wrapper remembers the page it last selected. When it cannot know (at first, after a failed page
/// write, after the chip reset itself), it selects the page again. A soft reset puts the chip back on
/// page 0: the driver says so with `chipDidReset()`. Page select and transfer run under one lock, so two
/// control threads cannot interleave them.
public final class PagedRegisterBus: RegisterBus, @unchecked Sendable {
    public let bus: any RegisterBus
    /// Registers a page holds (256 for 8-bit addresses).
    public let pageSize: Int
    /// The page register's number inside each page.
    public let pageRegister: RegisterAddress
    private let lock = Condition()
    // Guarded by `lock`.
    private var page: Int?

    public init(bus: any RegisterBus, pageSize: Int = 256, pageRegister: RegisterAddress = 0) {
        precondition(pageSize > Int(pageRegister) && pageSize <= Int(bus.layout.maxRegister) + 1,
                     "a page must fit the wire bus's register numbers")
        self.bus = bus
        self.pageSize = pageSize
        self.pageRegister = pageRegister
    }

    public var target: I2CTarget { bus.target }
    public var layout: RegisterLayout { bus.layout }

    /// The page the chip is on as far as the wrapper knows (nil: unknown, the next transfer selects one).
    public var currentPage: Int? { lock.locked { page } }

    /// The chip went back to page 0 by itself (a soft reset): the next page-0 transfer needs no select.
    public func chipDidReset() { lock.locked { page = 0 } }

    /// Forgets the page: the next transfer selects it again (after a power cycle, say).
    public func forgetPage() { lock.locked { page = nil } }

    public func read(_ register: RegisterAddress) throws(I2CError) -> RegisterValue {
        try onPage(of: register) { wire throws(I2CError) in try bus.read(wire) }
    }

    public func write(_ register: RegisterAddress, _ value: RegisterValue) throws(I2CError) {
        try onPage(of: register) { wire throws(I2CError) in
            try bus.write(wire, value)
            // A write to the page register itself moves the chip to that page.
            if wire == pageRegister { page = Int(value) }
        }
    }

    public func readBlock(from register: RegisterAddress, count: Int) throws(I2CError) -> [UInt8] {
        let offset = Int(register) % pageSize
        guard count >= 1, offset + count <= pageSize else {
            throw .blockOutOfRange(from: register, count: count, layout: layout)
        }
        return try onPage(of: register) { wire throws(I2CError) in try bus.readBlock(from: wire, count: count) }
    }

    /// Runs `transfer` with the wire register of `register`, after selecting its page if needed. Under the
    /// lock.
    private func onPage<T>(of register: RegisterAddress,
                           _ transfer: (RegisterAddress) throws(I2CError) -> T) throws(I2CError) -> T {
        let wanted = Int(register) / pageSize
        let wire = RegisterAddress(Int(register) % pageSize)
        guard wanted <= Int(layout.maxValue) else { throw .registerOutOfRange(register, layout: layout) }
        let outcome: Result<T, I2CError> = lock.locked {
            Result { () throws(I2CError) -> T in
                // The page register is the same on every page: it needs no select.
                if wire != pageRegister && page != wanted {
                    page = nil
                    try bus.write(pageRegister, RegisterValue(wanted))
                    page = wanted
                }
                return try transfer(wire)
            }
        }
        return try outcome.get()
    }
}
