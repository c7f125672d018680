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

    /// Selects the register's page if the chip is on another, then carries the transfer to its wire
    /// register. The reply's exchanges name virtual registers (page 1's register 2 is 0x102), the page
    /// select first when there was one.
    public func perform(_ transfer: RegisterTransfer) throws(I2CError) -> RegisterBusReply {
        let register = transfer.register
        if case .readBlock(_, let count) = transfer {
            let offset = Int(register) % pageSize
            guard count >= 1, offset + count <= pageSize else {
                throw .blockOutOfRange(from: register, count: count, layout: layout)
            }
        }
        let wanted = Int(register) / pageSize
        let wire = RegisterAddress(Int(register) % pageSize)
        guard wanted <= Int(layout.maxValue) else { throw .registerOutOfRange(register, layout: layout) }
        let outcome: Result<RegisterBusReply, I2CError> = lock.locked {
            Result { () throws(I2CError) -> RegisterBusReply in
                var selects: [RegisterBusExchange] = []
                // The page register is the same on every page: it needs no select.
                if wire != pageRegister && page != wanted {
                    page = nil
                    selects = try bus.perform(.write(reg: pageRegister, value: RegisterValue(wanted))).exchanges
                    page = wanted
                }
                var reply = try bus.perform(transfer.addressed(to: wire))
                // A write to the page register itself moves the chip to that page.
                if case .write(_, let value) = transfer, wire == pageRegister { page = Int(value) }
                let base = wire == pageRegister ? 0 : RegisterAddress(wanted * pageSize)
                reply.exchanges = selects + reply.exchanges.map { RegisterBusExchange($0.event.moved(by: base), wire: $0.wire) }
                return reply
            }
        }
        return try outcome.get()
    }
}
