import ArgumentParser
import HAL
import Synchronization

/// `appliance hal gpio watch|set|chips`: a line through the GPIO character device (libgpiod).
struct HALGPIOCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gpio", abstract: "GPIO lines through the character device.",
        subcommands: [Chips.self, Watch.self, Set.self])

    struct Chips: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the GPIO chips.")
        func run() throws {
            do throws(GPIOError) {
                for chip in try LinuxGPIO().chips() { emit("chip \(chip.name) label=\(chip.label) lines=\(chip.lineCount) path=\(chip.path)") }
            } catch { throw HALCommandError(error) }
        }
    }

    /// Watches an input with a bias and a debounce time; prints every raw edge and every debounced change with
    /// the kernel's timestamps, and stops after `count` debounced changes (or the timeout).
    struct Watch: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print an input's raw edges and debounced changes.")
        @Option(help: "The chip: a label, gpiochipN, or /dev path.") var chip: String
        @Option(help: "The line offset.") var line: Int
        @Option(help: "as-is, disabled, pull-up or pull-down.") var bias: String = "as-is"
        @Option(name: .customLong("debounce-ms"), help: "Debounce time in ms.") var debounceMilliseconds: Int = 20
        @Flag(name: .customLong("active-low")) var activeLow = false
        @Option(help: "Stop after this many debounced changes.") var count: Int = 1
        @Option(name: .customLong("timeout-ms"), help: "Give up after this long.") var timeoutMilliseconds: Int = 10_000
        /// For the system test: hold the event thread this long after the first edge, so that edges overflow
        /// the kernel's queue (16 per line) and the re-read after the gap can be seen.
        @Option(name: .customLong("stall-ms"), help: .hidden) var stallMilliseconds: Int = 0
        /// For the system test: watch for exactly this long, however many changes come, and end normally. A
        /// stalled reader hands the debouncer edges that are already old, so how many changes it reports on
        /// the way depends on the guest's timing; only the last one is certain.
        @Option(name: .customLong("for-ms"), help: .hidden) var forMilliseconds: Int = 0

        func run() throws {
            let bias: GPIOBias
            switch self.bias {
            case "as-is": bias = .asIs
            case "disabled": bias = .disabled
            case "pull-up": bias = .pullUp
            case "pull-down": bias = .pullDown
            default: throw HALCommandError("unknown bias '\(self.bias)': as-is, disabled, pull-up or pull-down")
            }
            // Lines go through a pipe to this thread, which prints them: the handlers run on HAL threads.
            let lines: Pipe
            do throws(SystemError) { lines = try Pipe(nonBlocking: false) } catch { throw HALCommandError("\(error)") }
            let send: @Sendable (String) -> Void = { text in lines.send(Array((text + "\n").utf8)) }
            let inputs = DebouncedInputs(clock: SystemClock.shared) { change in
                send("change \(change.active ? 1 : 0) first-edge-ns=\(change.timestamp.nanoseconds) "
                     + "last-edge-ns=\(change.lastEdge.nanoseconds)")
            }
            let gpio = LinuxGPIO()
            let requested: any GPIOInputLine
            let level: Bool
            do throws(GPIOError) {
                let config = GPIOInputConfig(bias: bias, activeLow: activeLow, edges: .both)
                let stall = stallMilliseconds
                let stalled = FirstTime()
                requested = try gpio.requestInput(.offset(line), on: GPIOChipSelector(chip), config) { event in
                    let edge = event.edge == .rising ? "rising" : "falling"
                    switch event.origin {
                    case .kernel(let sequence):
                        send("edge \(edge) ns=\(event.timestamp.nanoseconds)" + (sequence.map { " seq=\($0)" } ?? ""))
                    case .reread(let lost):
                        send("reread \(edge) ns=\(event.timestamp.nanoseconds) lost=\(lost.map(String.init) ?? "unknown")")
                    }
                    inputs.handle(event)
                    // The first edge holds the event thread, so later edges pile up in the kernel's queue.
                    if stall > 0, stalled.claim() {
                        send("stalled ms=\(stall)")
                        SystemClock.shared.sleep(for: .milliseconds(stall))
                    }
                }
                level = try requested.value()
            } catch { throw HALCommandError(error) }
            inputs.add(requested.id, debounce: .milliseconds(debounceMilliseconds), level: level)
            inputs.startTimer()
            emit("ready \(requested.id) level=\(level ? 1 : 0) bias=\(bias)")
            defer { inputs.stopTimer(); requested.release() }

            var changes = 0
            var pending: [UInt8] = []
            let watchFor = forMilliseconds > 0
            let deadline = SystemClock.shared.now + .milliseconds(watchFor ? forMilliseconds : timeoutMilliseconds)
            while watchFor || changes < count {
                let left = deadline - SystemClock.shared.now
                guard left > .zero else {
                    if watchFor { return }
                    throw HALCommandError("timed out after \(changes) of \(count) debounced changes")
                }
                let milliseconds = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1
                guard lines.waitForInput(timeoutMilliseconds: Int32(milliseconds)) else { continue }
                pending += lines.receive()
                while let newline = pending.firstIndex(of: 10) {
                    let text = String(decoding: pending[..<newline], as: UTF8.self)
                    pending.removeSubrange(...newline)
                    emit(text)
                    if text.hasPrefix("change ") { changes += 1 }
                }
            }
        }
    }

    /// Drives an output and holds it, so that the value can be read back from outside.
    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Drive an output line and hold it.")
        @Option(help: "The chip: a label, gpiochipN, or /dev path.") var chip: String
        @Option(help: "The line offset.") var line: Int
        @Option(help: "0 or 1.") var value: Int
        @Option(name: .customLong("hold-ms"), help: "How long to hold the line before releasing it.") var holdMilliseconds: Int = 1000

        func run() throws {
            do throws(GPIOError) {
                let output = try LinuxGPIO().requestOutput(.offset(line), on: GPIOChipSelector(chip),
                                                           GPIOOutputConfig(initialValue: value != 0))
                try output.setValue(value != 0)
                emit("set \(output.id) value=\(try output.value() ? 1 : 0)")
                SystemClock.shared.sleep(for: .milliseconds(holdMilliseconds))
                output.release()
                emit("released")
            } catch { throw HALCommandError(error) }
        }
    }
}

/// True for the first caller of `claim()` only, on any thread.
private final class FirstTime: Sendable {
    private let taken = Atomic<Bool>(false)
    func claim() -> Bool { !taken.exchange(true, ordering: .relaxed) }
}
