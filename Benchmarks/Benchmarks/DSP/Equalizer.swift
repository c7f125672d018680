import Benchmark
import CBaseline
import Codec8_24

func equalizerBenchmarks() {}
