import Codec8_24
import Queue

/// AudioFile.repair on a damaged file, as `appliance run` runs it on the recordings a power cut left: the input
/// is written to a file, repaired, then opened, and what repair reported must be there: the same type, format
/// and frame count, every frame readable. Byte 0 chooses the file's extension (the hint repair falls back on).
enum RepairFuzz {
    static let extensions = ["wav", "rf64", "aiff", "aifc", "caf", "flac", "bin"]

    static func run(_ input: [UInt8]) {
        guard let first = input.first else { return }
        let name = "damaged." + extensions[Int(first) % extensions.count]
        let path = FuzzScratch.file(named: name, holding: Array(input.dropFirst()))
        guard let report = try? AudioFile.repair(path: path) else { return }
        let file: AudioFile
        do {
            file = try AudioFile.open(path: path)
        } catch {
            preconditionFailure("repair said \(report) but the file does not open: \(error)")
        }
        defer { try? file.close() }
        precondition(file.fileType == report.fileType, "repair said \(report.fileType), open found \(file.fileType)")
        precondition(file.frameCount == report.frameCount, "repair said \(report.frameCount) frames, open found \(file.frameCount)")
        guard file.frameCount <= ContainerFuzz.frameBudget else { return }
        let channels = max(1, file.channelCount)
        let buffer = UnsafeMutableBufferPointer<Fixed824>.allocate(capacity: 4096 * channels)
        defer { buffer.deallocate() }
        var total: Int64 = 0
        while true {
            let frames: Int
            do {
                frames = try file.readFrames(into: buffer)
            } catch let error as AudioFileError where error.kind == .malformed {
                // Repair mends sizes, not audio: a damaged packet is reported as such (and ends the read).
                return
            } catch {
                preconditionFailure("repair said \(report) but frame \(total) does not read: \(error)")
            }
            if frames == 0 { break }
            total += Int64(frames)
        }
        precondition(total == report.frameCount, "repair said \(report.frameCount) frames, \(total) were read")
    }
}
