import HAL

/// The board's alert line: an LED, buzzer or vibration motor that an alert pulses (the phone's vibrate).
/// The appliance gives the player one from its board file; `GPIOAlertIndicator` drives a GPIO output.
public protocol AlertIndicator: AnyObject, Sendable {
    /// Drives the line on or off. Control thread.
    func setActive(_ active: Bool) throws(GPIOError)
}

/// An alert indicator on a requested GPIO output line (active-high or active-low as the request says).
public final class GPIOAlertIndicator: AlertIndicator {
    public let line: any GPIOOutputLine

    public init(line: any GPIOOutputLine) { self.line = line }

    public func setActive(_ active: Bool) throws(GPIOError) { try line.setValue(active) }
}
