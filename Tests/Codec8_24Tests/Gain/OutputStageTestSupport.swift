@testable import Codec8_24

/// The gain, mixer, meter and limiter suites draw their data and buffer splits from the shared seeded generator.
typealias OutputStageRandom = NoiseGenerator
