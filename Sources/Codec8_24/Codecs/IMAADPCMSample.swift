/// The linear sample types the IMA ADPCM coders read and write, so one generic loop serves both:
/// 16-bit integers, the codec's native precision, and 8.24 through the exact 16-bit widening.
protocol IMAADPCMSample {
    init(imaSample: Int16)
    var imaSample: Int16 { get }
}

extension Int16: IMAADPCMSample {
    @inline(__always) init(imaSample: Int16) { self = imaSample }
    @inline(__always) var imaSample: Int16 { self }
}

extension Fixed824: IMAADPCMSample {
    @inline(__always) init(imaSample: Int16) { self.init(int16: imaSample) }
    @inline(__always) var imaSample: Int16 { int16 }
}
