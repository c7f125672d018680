/// How a simulated chip reacts to its control port beyond storing what is written: a soft-reset
/// register that puts every register back to its default, a page-select register that changes what the
/// following addresses mean, bits that clear themselves. A codec's model supplies one so its twin does
/// what the silicon does; without one the bus just stores values.
///
/// Both calls run under the bus's lock, on the chip's side of the wire: no transfers from here.
public protocol SimulatedChipBehavior: Sendable {
    /// Where a register on the wire is stored: a paged chip maps the wire address onto its current page
    /// (`registers` holds the page register). The register map is checked against the stored address.
    func storageAddress(of wireRegister: RegisterAddress, registers: [RegisterAddress: RegisterValue]) -> RegisterAddress

    /// After an accepted write to `register` (a storage address) of `value`, already stored.
    func didWrite(_ register: RegisterAddress, _ value: RegisterValue,
                  registers: inout [RegisterAddress: RegisterValue], resetValues: [RegisterAddress: RegisterValue])
}

extension SimulatedChipBehavior {
    public func storageAddress(of wireRegister: RegisterAddress,
                               registers: [RegisterAddress: RegisterValue]) -> RegisterAddress { wireRegister }

    public func didWrite(_ register: RegisterAddress, _ value: RegisterValue,
                         registers: inout [RegisterAddress: RegisterValue],
                         resetValues: [RegisterAddress: RegisterValue]) {}
}

/// A chip whose write (of any value) to one register is a soft reset: WM8960 R15, WM8731 R15.
public struct SoftResetRegister: SimulatedChipBehavior {
    public let register: RegisterAddress

    public init(_ register: RegisterAddress) { self.register = register }

    public func didWrite(_ register: RegisterAddress, _ value: RegisterValue,
                         registers: inout [RegisterAddress: RegisterValue],
                         resetValues: [RegisterAddress: RegisterValue]) {
        if register == self.register { registers = resetValues }
    }
}
