import HAL

/// Why a validated board could not be put together into devices.
public enum BoardAssemblyError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Opening or addressing the codec's bus failed.
    case bus(I2CError)
    /// The board file gives the codec to the kernel's driver: the appliance must not program it.
    case kernelControlled(CodecChip)
    /// The chip needs an MCLK and the board names none.
    case needsMasterClock(CodecChip)

    public var description: String {
        switch self {
        case .bus(let error): "\(error)"
        case .kernelControlled(let chip):
            "the board file says the kernel drives the \(chip.displayName) (codec.control: kernel); the appliance "
                + "leaves it alone and uses ALSA mixer controls"
        case .needsMasterClock(let chip):
            "the \(chip.displayName) needs an MCLK: set codec.mclk in the board file"
        }
    }
}
