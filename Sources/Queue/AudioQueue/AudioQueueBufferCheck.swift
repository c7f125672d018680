/// The checks a buffer passes at enqueue, on the control thread, so the render thread can decode it without
/// a failure path: whole packets within the capacity, packet descriptions (when given) that describe exactly
/// those bytes, and Apple IMA4 headers whose step index exists (0 ... 88, Apple's IMA4 packet layout; the
/// IMA ADPCM step table has 89 entries).
struct AudioQueueBufferCheck {
    let format: StreamFormat

    func check(_ buffer: AudioQueueBuffer) throws(AudioQueueError) {
        let packetBytes = format.bytesPerPacket
        guard buffer.byteSize > 0, buffer.byteSize <= buffer.byteCapacity else {
            throw AudioQueueError(.invalidBuffer, "byte size \(buffer.byteSize) of a \(buffer.byteCapacity)-byte buffer",
                                  hint: "set byteSize to the bytes written, 1 ... byteCapacity")
        }
        guard buffer.byteSize % packetBytes == 0 else {
            throw AudioQueueError(.invalidBuffer,
                                  "\(buffer.byteSize) bytes is not a whole number of \(packetBytes)-byte packets of \(format)",
                                  hint: "fill buffers with whole packets (AudioFile.readPackets does)")
        }
        let packets = buffer.byteSize / packetBytes
        if buffer.packetDescriptionCount > 0, let descriptions = buffer.packetDescriptions {
            guard buffer.packetDescriptionCount == packets, buffer.packetDescriptionCount <= buffer.packetDescriptionCapacity else {
                throw AudioQueueError(.invalidBuffer,
                                      "\(buffer.packetDescriptionCount) packet descriptions for \(packets) packets",
                                      hint: "give one description per packet, or none for constant-size packets")
            }
            for i in 0..<packets {
                let d = descriptions[i]
                let frames = d.variableFramesInPacket == 0 ? format.framesPerPacket : d.variableFramesInPacket
                guard d.startOffset == i * packetBytes, d.dataByteSize == packetBytes, frames == format.framesPerPacket else {
                    throw AudioQueueError(.invalidBuffer,
                                          "packet description \(i) says \(d.dataByteSize) bytes at \(d.startOffset)",
                                          hint: "\(format.formatID) packets are \(packetBytes) bytes back to back; variable packets need a codec this queue does not have yet")
                }
            }
        }
        if format.formatID == .appleIMA4 {
            let bytesPerChannel = packetBytes / format.channelsPerFrame
            for packet in 0..<packets {
                for channel in 0..<format.channelsPerFrame {
                    let offset = packet * packetBytes + channel * bytesPerChannel + 1
                    let stepIndex = buffer.audioData.load(fromByteOffset: offset, as: UInt8.self) & 0x7F
                    guard stepIndex <= 88 else {
                        throw AudioQueueError(.invalidBuffer,
                                              "IMA4 packet \(packet), channel \(channel) has step index \(stepIndex) (0 ... 88)",
                                              hint: "the data is not IMA4 or is corrupt")
                    }
                }
            }
        }
    }
}
