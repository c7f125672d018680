/// GPIO lines behind a small protocol: the real backend (`LinuxGPIO`, libgpiod) and the simulated twin
/// (`SimulatedGPIO`) request lines the same way and fail with the same `GPIOError`s.
///
/// Requests are exclusive (the kernel's rule): a line requested twice, here or by another program, is busy.
/// A request lasts until `release()` or until the returned object goes away.
public protocol GPIOController: AnyObject, Sendable {
    /// The chips present, in device order.
    func chips() throws(GPIOError) -> [GPIOChipInfo]

    /// Requests an input. With edge detection, `onEdge` receives every edge (see `GPIOEdgeHandler` for the
    /// thread it runs on); it is never called after `release()` returns.
    func requestInput(_ line: GPIOLineSelector, on chip: GPIOChipSelector, _ config: GPIOInputConfig,
                      onEdge: GPIOEdgeHandler?) throws(GPIOError) -> any GPIOInputLine

    /// Requests an output, driven to `config.initialValue` from the moment of the request.
    func requestOutput(_ line: GPIOLineSelector, on chip: GPIOChipSelector,
                       _ config: GPIOOutputConfig) throws(GPIOError) -> any GPIOOutputLine
}

extension GPIOController {
    /// The chip a selector means, or `chipNotFound` listing the chips that exist.
    public func chip(_ selector: GPIOChipSelector) throws(GPIOError) -> GPIOChipInfo {
        let all = try chips()
        guard let chip = all.first(where: selector.matches) else {
            throw .chipNotFound(selector, available: all)
        }
        return chip
    }

    /// An input without edge events.
    public func requestInput(_ line: GPIOLineSelector, on chip: GPIOChipSelector,
                             _ config: GPIOInputConfig = GPIOInputConfig()) throws(GPIOError) -> any GPIOInputLine {
        try requestInput(line, on: chip, config, onEdge: nil)
    }
}

/// A requested line.
public protocol GPIOLine: AnyObject, Sendable {
    var id: GPIOLineID { get }
    /// The line's name from the device tree, or nil.
    var name: String? { get }
    /// The logical value (active-low applied): an input's level, or what an output drives.
    func value() throws(GPIOError) -> Bool
    /// Gives the line back to the kernel. Safe to call twice; afterwards every call throws `.released`.
    func release()
}

/// A requested input line; its edges (if asked for) go to the handler given with the request.
public protocol GPIOInputLine: GPIOLine {}

/// A requested output line.
public protocol GPIOOutputLine: GPIOLine {
    func setValue(_ active: Bool) throws(GPIOError)
}
