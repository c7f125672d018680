// swift-tools-version:6.2
// Host-only benchmarks of the firmware's DSP kernels (ordo-one/benchmark). Kept out of the main package so the
// firmware stays on tools 6.0 for the Raspberry Pi toolchain. Run with `make bench` from the repository root.
import PackageDescription

let package = Package(
    name: "ApplianceBenchmarks",
    dependencies: [
        .package(name: "appliance", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.0", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The C baseline the Swift EQ is measured against, built like a C programmer would ship it.
        .target(
            name: "CBaseline",
            cSettings: [.unsafeFlags(["-O3"])]
        ),
        .executableTarget(
            name: "DSP",
            dependencies: [
                "CBaseline",
                .product(name: "Codec8_24", package: "appliance"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/DSP",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
