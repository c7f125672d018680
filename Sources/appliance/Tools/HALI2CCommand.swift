import ArgumentParser
import HAL

/// `appliance hal i2c get|set|recipe`: registers over i2c-dev, and a codec driver's recipes on the real bus.
struct HALI2CCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "i2c", abstract: "Registers through /dev/i2c-N.",
        subcommands: [Get.self, Set.self, Recipe.self])

    /// Where a register lives: the bus, the address and the chip's layout.
    struct Target: ParsableArguments {
        @Option(help: "The N of /dev/i2c-N.") var bus: Int
        @Option(help: "The 7-bit address, e.g. 0x1a.") var address: String
        @Option(help: "8+8, 7+9, 16+16 or 8+8-auto.") var layout: String = "8+8"

        func open() throws -> I2CRegisterBus {
            guard let number = parseInteger(address) else { throw HALCommandError("not an address: '\(address)'") }
            let layout: RegisterLayout
            switch self.layout {
            case "8+8": layout = .reg8Value8
            case "7+9": layout = .reg7Value9
            case "16+16": layout = .reg16Value16
            case "8+8-auto": layout = .reg8Value8AutoIncrement
            default: throw HALCommandError("unknown layout '\(self.layout)': 8+8, 7+9, 16+16 or 8+8-auto")
            }
            do throws(I2CError) {
                return try I2CRegisterBus(bus: bus, address: try I2CAddress(number), layout: layout)
            } catch { throw HALCommandError(error) }
        }
    }

    struct Get: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Read one register.")
        @OptionGroup var target: Target
        @Option(help: "The register number.") var register: String

        func run() throws {
            let bus = try target.open()
            guard let register = parseInteger(register) else { throw HALCommandError("not a register: '\(self.register)'") }
            do throws(I2CError) {
                let value = try bus.read(RegisterAddress(truncatingIfNeeded: register))
                emit(hex(value, digits: (bus.layout.valueBits + 3) / 4))
            } catch { throw HALCommandError(error) }
        }
    }

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Write one register.")
        @OptionGroup var target: Target
        @Option(help: "The register number.") var register: String
        @Option(help: "The value.") var value: String

        func run() throws {
            let bus = try target.open()
            guard let register = parseInteger(register), let value = parseInteger(value) else {
                throw HALCommandError("register and value must be numbers")
            }
            do throws(I2CError) {
                try bus.write(RegisterAddress(truncatingIfNeeded: register), RegisterValue(truncatingIfNeeded: value))
            } catch { throw HALCommandError(error) }
        }
    }

    /// Runs a codec driver on the real bus: reset, configure, a volume, then the operation; prints every write
    /// as `<phase> write <reg> <value>`, the way the golden-trace tests list them.
    struct Recipe: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Run a codec driver's recipe on the bus.")
        @Option(help: "The N of /dev/i2c-N.") var bus: Int
        @Option(help: "The codec's 7-bit address.") var address: String = "0x1a"
        @Option(help: "The codec driver (wm8960).") var codec: String = "wm8960"
        @Option(help: "power-up, power-down, standby or wake (after reset and configure).") var operation: String = "power-up"
        @Option(help: "The master clock in Hz.") var mclk: Int = 12_288_000
        @Option(help: "The sample rate.") var rate: Int = 48_000
        @Option(name: .customLong("volume-db"), help: "Headphone volume set before the operation.") var volumeDB: Double = -20

        func run() throws {
            guard codec == "wm8960" else { throw HALCommandError("unknown codec '\(codec)' (wm8960)") }
            guard let number = parseInteger(address) else { throw HALCommandError("not an address: '\(address)'") }
            do {
                let real = try I2CRegisterBus(bus: bus, address: try I2CAddress(number), layout: .reg7Value9)
                let recorder = RecordingRegisterBus(real)
                let driver = WM8960(bus: recorder, clock: SystemClock.shared, mclk: mclk)
                recorder.phase = "reset"
                _ = try driver.reset()
                recorder.phase = "configure"
                try driver.configure(CodecStreamFormat(sampleRate: rate))
                _ = try driver.setVolume(volumeDB, output: .headphones)
                recorder.phase = operation
                switch operation {
                case "power-up": try driver.powerUp()
                case "power-down": try driver.powerUp(); try driver.powerDown()
                case "standby": try driver.powerUp(); try driver.standby()
                case "wake": try driver.powerUp(); try driver.standby(); try driver.wake()
                default: throw HALCommandError("unknown operation '\(operation)'")
                }
            } catch let error as HALCommandError {
                throw error
            } catch let error as CustomStringConvertible & Error {
                throw HALCommandError(error)
            }
        }
    }
}

/// Passes every transfer to the real bus and prints each write as it goes out.
final class RecordingRegisterBus: RegisterBus, @unchecked Sendable {
    let bus: any RegisterBus
    var phase = ""
    init(_ bus: any RegisterBus) { self.bus = bus }
    var target: I2CTarget { bus.target }
    var layout: RegisterLayout { bus.layout }
    func perform(_ transfer: RegisterTransfer) throws(I2CError) -> RegisterBusReply {
        let reply = try bus.perform(transfer)
        if case .write(let register, let value) = transfer {
            emit("\(phase) write \(hex(register, digits: 2)) \(hex(value, digits: 3))")
        }
        return reply
    }
}
