import Foundation

/// The reference tools the codec tests run (flac, lame, opusenc/opusdec, ffmpeg/ffprobe, sox, AtomicParsley), found by name with
/// the Debian package to install when one is missing, and their raw output read as samples.
public enum ReferenceTool {
    static let packages = ["flac": "flac", "metaflac": "flac", "lame": "lame", "opusenc": "opus-tools",
                           "opusdec": "opus-tools", "opusinfo": "opus-tools", "ffmpeg": "ffmpeg", "ffprobe": "ffmpeg",
                           "sox": "sox", "mpg123": "mpg123", "AtomicParsley": "atomicparsley"]

    /// The tool's path; a missing tool is a failure naming its Debian package (run image/host-deps.sh host).
    public static func path(_ name: String) throws -> String {
        for directory in ["/usr/bin", "/usr/local/bin", "/bin"] where FileManager.default.isExecutableFile(atPath: "\(directory)/\(name)") {
            return "\(directory)/\(name)"
        }
        let package = packages[name] ?? name
        throw Subprocess.Failure(description: "the reference tool '\(name)' is not installed: apt-get install \(package) (or image/host-deps.sh host)")
    }

    /// Runs `name` with `arguments`, throwing with its stderr unless it exits 0; returns its stdout.
    @discardableResult
    public static func run(_ name: String, _ arguments: [String]) throws -> Data {
        try Subprocess.check(try path(name), arguments)
    }

    /// FFmpeg's decoding of `path` as interleaved signed 32-bit samples (full scale = Int32.max), after any
    /// `options` (e.g. ["-ar", "48000"]). FFmpeg honours MP4 edit lists, LAME/Xing delay and padding, and Opus
    /// pre-skip, so its output is the gapless reference.
    public static func ffmpegSamples(_ path: String, options: [String] = []) throws -> [Int32] {
        let data = try run("ffmpeg", ["-v", "error", "-nostdin", "-i", path] + options + ["-f", "s32le", "-acodec", "pcm_s32le", "-"])
        return int32Samples(data)
    }

    /// Little-endian signed 32-bit samples from raw bytes.
    public static func int32Samples(_ data: Data) -> [Int32] {
        data.withUnsafeBytes { raw in
            (0..<(raw.count / 4)).map { Int32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * $0, as: Int32.self)) }
        }
    }

    /// Little-endian signed 16-bit samples from raw bytes.
    public static func int16Samples(_ data: Data) -> [Int16] {
        data.withUnsafeBytes { raw in
            (0..<(raw.count / 2)).map { Int16(littleEndian: raw.loadUnaligned(fromByteOffset: 2 * $0, as: Int16.self)) }
        }
    }

    /// The first index where `a` and `b` differ, or where the shorter ends; nil when equal. (Swift Testing diffs
    /// whole arrays on a failed `==`, which runs out of memory on long signals: compare with this instead.)
    public static func firstDifference<T: Equatable>(_ a: [T], _ b: [T]) -> Int? {
        let n = min(a.count, b.count)
        for i in 0..<n where a[i] != b[i] { return i }
        return a.count == b.count ? nil : n
    }
}
