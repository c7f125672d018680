import HAL

extension BoardGPIO {
    /// Schedules the simulated pin of `line` to go active (or inactive) at `time`, chattering after it as
    /// `bounce` says, and keeps the pump going until the chatter is over. Returns when it is. The level is
    /// the pin's, from the board file's polarity: an active-low button pressed pulls its pin low.
    @discardableResult
    public func drive(line: Int, active: Bool, polarity: ActiveLevel, at time: Timestamp,
                      bounce: ContactBounce) throws(BoardDeviceError) -> Timestamp {
        guard let simulated else { throw .notSimulated("driving GPIO\(line)") }
        let id = try lineID(line)
        var high = active == (polarity == .high)
        simulated.schedule(id, level: high, at: time)
        for toggle in bounce.toggles {
            high.toggle()
            simulated.schedule(id, level: high, at: time + toggle)
        }
        let end = time + bounce.duration
        pump?.expectChanges(until: end)
        return end
    }

    /// The simulated pin's level now (true: high), for tests and `board`.
    public func pinLevel(_ line: Int) throws(BoardDeviceError) -> Bool {
        guard let simulated else { throw .notSimulated("reading a pin") }
        return simulated.level(try lineID(line))
    }
}
