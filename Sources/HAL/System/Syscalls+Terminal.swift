#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// termios(3): a serial line's or a terminal's settings.
extension Syscalls {
    static func tcgetattr(_ descriptor: Int32, _ settings: inout termios) -> Int32 {
        Glibc.tcgetattr(descriptor, &settings)
    }

    static func tcsetattr(_ descriptor: Int32, _ when: Int32, _ settings: inout termios) -> Int32 {
        Glibc.tcsetattr(descriptor, when, &settings)
    }

    static func cfsetspeed(_ settings: inout termios, _ speed: speed_t) -> Int32 {
        Glibc.cfsetspeed(&settings, speed)
    }
}
