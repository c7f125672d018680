import CFFmpeg
import Codec8_24

/// Decoded FFmpeg frames (planar or interleaved; 16-bit, 32-bit or float samples) into interleaved 8.24.
/// Integer samples convert exactly: Apple Lossless decodes 16-bit sources to s16(p) and 24-bit ones to s32(p)
/// with the sample in the top 24 bits, so `Fixed824(int16:)` / `Fixed824(int32:)` keep every bit.
enum FFmpegSampleConversion {
    /// Whether `format` (an AVSampleFormat value) is one `interleave` converts.
    static func isSupported(_ format: Int32) -> Bool {
        [AV_SAMPLE_FMT_S16, AV_SAMPLE_FMT_S32, AV_SAMPLE_FMT_FLT,
         AV_SAMPLE_FMT_S16P, AV_SAMPLE_FMT_S32P, AV_SAMPLE_FMT_FLTP].map(\.rawValue).contains(format)
    }

    /// Writes frames `first ..< first + count` of `frame` into `output` (from its start), interleaved.
    static func interleave(_ frame: UnsafePointer<AVFrame>, channels: Int, first: Int, count: Int,
                           into output: UnsafeMutablePointer<Fixed824>) {
        let format = frame.pointee.format
        guard let planes = frame.pointee.extended_data else { return }
        let planar = format == AV_SAMPLE_FMT_S16P.rawValue || format == AV_SAMPLE_FMT_S32P.rawValue
            || format == AV_SAMPLE_FMT_FLTP.rawValue
        for c in 0..<channels {
            guard let plane = planes[planar ? c : 0] else { continue }
            let stride = planar ? 1 : channels
            let start = planar ? first : first * channels + c
            var out = output + c
            switch format {
            case AV_SAMPLE_FMT_S16.rawValue, AV_SAMPLE_FMT_S16P.rawValue:
                let samples = UnsafeRawPointer(plane).assumingMemoryBound(to: Int16.self) + start
                for i in 0..<count { out.pointee = Fixed824(int16: samples[i * stride]); out += channels }
            case AV_SAMPLE_FMT_S32.rawValue, AV_SAMPLE_FMT_S32P.rawValue:
                let samples = UnsafeRawPointer(plane).assumingMemoryBound(to: Int32.self) + start
                for i in 0..<count { out.pointee = Fixed824(int32: samples[i * stride]); out += channels }
            default:   // flt, fltp (checked by isSupported when the decoder opened)
                let samples = UnsafeRawPointer(plane).assumingMemoryBound(to: Float.self) + start
                for i in 0..<count { out.pointee = Fixed824(samples[i * stride]); out += channels }
            }
        }
    }
}
