import Foundation

/// sox's own decoding of a file (the reference for what a file holds): signed 32-bit samples, interleaved;
/// a 16-bit sample v reads as v << 16, a 24-bit one as v << 8.
public func soxSamples(_ path: String) throws -> [Int32] {
    let data = try Subprocess.check("/usr/bin/sox", [path, "-t", "s32", "-e", "signed-integer", "-L", "-"])
    return data.withUnsafeBytes { raw in
        (0..<(raw.count / 4)).map { Int32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * $0, as: Int32.self)) }
    }
}
