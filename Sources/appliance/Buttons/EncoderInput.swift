import Board
import HAL
import Synchronization

/// One rotary encoder: its two lines read raw (both edges) into a `QuadratureDecoder`; each detent is
/// handed to `onSteps` with the time of the edge that completed it, on the edge's thread.
final class EncoderInput: Sendable {
    let config: EncoderConfig
    let lineA: GPIOLineID
    let lineB: GPIOLineID
    private let decoder: Mutex<(a: Bool, b: Bool, decoder: QuadratureDecoder)>
    private let requested: Mutex<[any HAL.GPIOInputLine]> = Mutex([])

    init(_ config: EncoderConfig, gpio: BoardGPIO, onEdge: @escaping @Sendable (GPIOEdgeEvent) -> Void,
         onSteps: @escaping @Sendable (Int, Timestamp) -> Void) throws(BoardDeviceError) {
        self.config = config
        lineA = try gpio.lineID(config.lineA)
        lineB = try gpio.lineID(config.lineB)
        // Contacts open at rest read inactive: the rest state is 00.
        decoder = Mutex((false, false, QuadratureDecoder(a: false, b: false)))
        let input = GPIOInputConfig(bias: config.bias, activeLow: config.active.isLow, edges: .both)
        var lines: [any HAL.GPIOInputLine] = []
        for (offset, channel) in [(config.lineA, "A"), (config.lineB, "B")] {
            do throws(GPIOError) {
                lines.append(try gpio.controller.requestInput(.offset(offset), on: gpio.chip, input) { [weak self] event in
                    onEdge(event)
                    guard let self else { return }
                    let steps = self.edge(event)
                    if steps != 0 { onSteps(steps, event.timestamp) }
                })
            } catch {
                throw .gpio(what: "encoder '\(config.name)' channel \(channel) on GPIO\(offset)", error)
            }
        }
        let a = (try? lines[0].value()) ?? false, b = (try? lines[1].value()) ?? false
        decoder.withLock { $0 = (a, b, QuadratureDecoder(a: a, b: b)) }
        requested.withLock { $0 = lines }
    }

    private func edge(_ event: GPIOEdgeEvent) -> Int {
        decoder.withLock { state in
            if event.line == lineA { state.a = event.edge.level } else { state.b = event.edge.level }
            return state.decoder.update(a: state.a, b: state.b)
        }
    }

    func release() {
        for line in requested.withLock({ $0 }) { line.release() }
    }
}
