import Codec8_24

/// Samples as the codec libraries hand them over, into interleaved 8.24: one place for each kind of loop the
/// readers and packet decoders would otherwise each write.
enum LibrarySamples {
    /// `count` signed 32-bit integers (full scale 2^31) a library wrote into `samples`' memory, turned into
    /// 8.24 in place (`Fixed824(int32:)`; a `Fixed824` is stored as its raw Int32, so the layout is the same).
    static func int32ToFixed824(_ samples: UnsafeMutablePointer<Fixed824>, count: Int) {
        for i in 0..<count { samples[i] = Fixed824(int32: samples[i].raw) }
    }

    /// `count` float samples (full scale 1.0) into 8.24 (`Fixed824(Float)`, clamped).
    static func floatToFixed824(_ source: UnsafePointer<Float>, count: Int, into output: UnsafeMutableBufferPointer<Fixed824>) {
        for i in 0..<count { output[i] = Fixed824(source[i]) }
    }
}
