import Benchmark
import Codec8_24

func codecBenchmarks() {
    for law in [G711Law.muLaw, .aLaw] {
        Benchmark("G.711 \(law) encode from 8.24 [\(stereoSamples) samples]") { benchmark in
            let source = noiseBuffer(stereoSamples)
            let codes = buffer(stereoSamples, UInt8(0))
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                law.encode(UnsafeBufferPointer(source), into: codes)
                blackHole(codes[3])
            }
        }
        Benchmark("G.711 \(law) decode to 8.24 [\(stereoSamples) samples]") { benchmark in
            let codes = buffer(stereoSamples, UInt8(0))
            law.encode(UnsafeBufferPointer(noiseBuffer(stereoSamples)), into: codes)
            let target = buffer(stereoSamples, Fixed824.zero)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                law.decode(UnsafeBufferPointer(codes), into: target)
                blackHole(target[3])
            }
        }
    }

    Benchmark("IMA ADPCM ima4 encode stereo [\(stereoSamples) samples]") { benchmark in
        let source = noiseBuffer(stereoSamples)
        let packets = UnsafeMutableRawBufferPointer.allocate(byteCount: periodFrames / 64 * 2 * 34, alignment: 4)
        let encoder = try! IMA4Encoder(channelCount: 2)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try! encoder.encode(UnsafeBufferPointer(source), into: packets))
        }
    }

    Benchmark("IMA ADPCM ima4 decode stereo [\(stereoSamples) samples]") { benchmark in
        let packets = UnsafeMutableRawBufferPointer.allocate(byteCount: periodFrames / 64 * 2 * 34, alignment: 4)
        _ = try! IMA4Encoder(channelCount: 2).encode(UnsafeBufferPointer(noiseBuffer(stereoSamples)), into: packets)
        let target = buffer(stereoSamples, Fixed824.zero)
        let decoder = try! IMA4Decoder(channelCount: 2)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            decoder.reset()
            blackHole(try! decoder.decode(UnsafeRawBufferPointer(packets), into: target))
        }
    }

    Benchmark("IMA ADPCM WAV decode stereo, 1024-byte blocks [2036 samples]") { benchmark in
        let layout = try! IMAADPCMWaveLayout(channelCount: 2, blockAlign: 1024)   // 1017 frames per block
        let blocks = UnsafeMutableRawBufferPointer.allocate(byteCount: 1024, alignment: 4)
        let frames = layout.framesPerBlock
        _ = try! IMAADPCMWaveEncoder(layout: layout).encode(UnsafeBufferPointer(noiseBuffer(frames * 2)), into: blocks)
        let target = buffer(frames * 2, Fixed824.zero)
        let decoder = IMAADPCMWaveDecoder(layout: layout)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try! decoder.decode(UnsafeRawBufferPointer(blocks), into: target))
        }
    }
}
