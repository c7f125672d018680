// swift-tools-version:6.0
// libFuzzer targets for every parser of the firmware (issue 16). Kept out of the main package, as Benchmarks/ is,
// so the firmware keeps its five modules: this package depends on it by path and is built only with
// `--sanitize=fuzzer --sanitize=address` (Fuzzing/fuzz.sh; `make fuzz`, `make test-fuzz`; RELIABILITY.md).
import PackageDescription

let package = Package(
    name: "ApplianceFuzz",
    dependencies: [
        .package(name: "appliance", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // One executable for all targets (one sanitizer build, one link on a 2-core machine); FUZZ_TARGET picks
        // the target. The console's parser and dispatcher and the settings loader live in the `appliance`
        // executable, so its sources are compiled in here through the `appliance` symlink, without its @main
        // file (Appliance.swift; the one helper of it the others use is in ApplianceMainStandIn.swift).
        .executableTarget(
            name: "Fuzz",
            dependencies: [
                .product(name: "Queue", package: "appliance"),
                .product(name: "Board", package: "appliance"),
                .product(name: "HAL", package: "appliance"),
                .product(name: "Codec8_24", package: "appliance"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            exclude: ["appliance/Appliance.swift"],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
    ],
    swiftLanguageModes: [.v6]
)
