import Codec8_24
@testable import Queue

/// Every frame a compressed file reader gives, read `chunk` frames at a time, and the error that ended the
/// reading if one did (the frames before it included): what each codec's tests compare with its reference.
func readCompressed(_ reader: any CompressedFileReader, chunk: Int = 1000) -> (samples: [Fixed824], error: AudioFileError?) {
    let channels = reader.info.format.channelsPerFrame
    var samples: [Fixed824] = []
    var buffer = [Fixed824](repeating: .zero, count: chunk * channels)
    while true {
        do {
            let n = try buffer.withUnsafeMutableBufferPointer { try reader.read(into: $0) }
            if n == 0 { return (samples, nil) }
            samples += buffer[0..<(n * channels)]
        } catch {
            return (samples, error as? AudioFileError ?? AudioFileError(.io, "\(error)"))
        }
    }
}
