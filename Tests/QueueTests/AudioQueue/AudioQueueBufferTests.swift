import Testing
@testable import Queue

struct AudioQueueBufferTests {
    @Test func packetDescriptionsShareTheAudioAllocation() throws {
        // Behaviour 26 (core-audio-iphone-2008.md): descriptions live in the same allocation as the audio.
        let pool = AudioQueueBufferPool(capacity: 2)
        let buffer = try pool.allocate(byteCapacity: 1001, packetDescriptionCapacity: 8)
        let start = UInt(bitPattern: buffer.audioData)
        let descriptions = UInt(bitPattern: buffer.packetDescriptions!)
        let stride = UInt(MemoryLayout<AudioStreamPacketDescription>.stride)
        #expect(descriptions >= start + 1001 && descriptions < start + 1001 + stride, "right after the audio bytes")
        #expect(descriptions % UInt(MemoryLayout<AudioStreamPacketDescription>.alignment) == 0)
        #expect(buffer.byteCapacity == 1001 && buffer.packetDescriptionCapacity == 8 && buffer.byteSize == 0)
        let plain = try pool.allocate(byteCapacity: 64, packetDescriptionCapacity: 0)
        #expect(plain.packetDescriptions == nil)
        #expect(pool.owns(buffer) && pool.owns(plain))
    }

    @Test func aPoolKnowsOnlyItsOwnBuffersAndItsLimit() throws {
        let a = AudioQueueBufferPool(capacity: 1), b = AudioQueueBufferPool(capacity: 1)
        let fromB = try b.allocate(byteCapacity: 16, packetDescriptionCapacity: 0)
        #expect(!a.owns(fromB))
        _ = try a.allocate(byteCapacity: 16, packetDescriptionCapacity: 0)
        do { _ = try a.allocate(byteCapacity: 16, packetDescriptionCapacity: 0); Issue.record("over the limit") } catch {
            #expect(error.kind == .limitReached)
        }
        do { _ = try b.allocate(byteCapacity: 0, packetDescriptionCapacity: 0); Issue.record("empty buffer") } catch {
            #expect(error.kind == .invalidBuffer)
        }
    }
}
