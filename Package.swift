// swift-tools-version:6.0
// The appliance firmware: one package, five modules, dependencies pointing one way
// (appliance -> Queue -> Board -> HAL -> Codec8_24; Queue uses HAL's System layer and Codec8_24 directly,
// nothing of Board). See shared/DESIGN.md.
import PackageDescription

let package = Package(
    name: "appliance",
    products: [
        .executable(name: "appliance", targets: ["appliance"]),
        .library(name: "Codec8_24", targets: ["Codec8_24"]),
        .library(name: "HAL", targets: ["HAL"]),
        .library(name: "Board", targets: ["Board"]),
        .library(name: "Queue", targets: ["Queue"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-numerics", from: "1.0.0"),
    ],
    targets: [
        .target(
            name: "Codec8_24",
            dependencies: [.product(name: "RealModule", package: "swift-numerics")]
        ),
        // Each C library enters through one small C target, kept inside HAL's folder.
        .target(name: "CALSA", path: "Sources/HAL/C/CALSA", linkerSettings: [.linkedLibrary("asound")]),
        .target(name: "CGPIOD", path: "Sources/HAL/C/CGPIOD", linkerSettings: [.linkedLibrary("gpiod")]),
        .target(name: "CI2C", path: "Sources/HAL/C/CI2C", linkerSettings: [.linkedLibrary("i2c")]),
        .target(name: "CSignalFD", path: "Sources/HAL/C/CSignalFD"),
        // libedit (BSD licence) for the console's line editing; never GNU readline (GPL).
        .target(name: "CEdit", path: "Sources/HAL/C/CEdit", linkerSettings: [.linkedLibrary("edit")]),
        .target(name: "HAL", dependencies: ["Codec8_24", "CALSA", "CGPIOD", "CI2C", "CEdit", "CSignalFD"], exclude: ["C"]),
        .target(name: "Board", dependencies: ["HAL"]),
        // The codec libraries behind AudioFile's compressed formats (Queue/Codecs), one C target each.
        .target(name: "CFLAC", path: "Sources/Queue/C/CFLAC", linkerSettings: [.linkedLibrary("FLAC")]),
        .target(name: "CMPG123", path: "Sources/Queue/C/CMPG123", linkerSettings: [.linkedLibrary("mpg123")]),
        .target(name: "COpus", path: "Sources/Queue/C/COpus", linkerSettings: [
            .linkedLibrary("opusfile"), .linkedLibrary("opusenc"), .linkedLibrary("opus"), .linkedLibrary("ogg"),
        ]),
        // FFmpeg is loaded with dlopen (AAC and ALAC only; most boards never need its ~60 libraries).
        .target(name: "CFFmpeg", path: "Sources/Queue/C/CFFmpeg", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "Queue", dependencies: ["HAL", "Codec8_24", "CFLAC", "CMPG123", "COpus", "CFFmpeg"], exclude: ["C"]),
        .executableTarget(
            name: "appliance",
            dependencies: [
                "Queue",
                "Board",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Helpers the test targets share (running reference tools and the appliance binary).
        .target(name: "TestSupport", dependencies: ["PseudoTerminal"], path: "Tests/TestSupport"),
        // Test-only: posix_openpt and friends, which Glibc's Swift module does not export (for pty tests).
        .target(name: "PseudoTerminal", path: "Tests/PseudoTerminal"),
        // Test-only: counts allocations, locks and system calls per thread around a render call (interposes
        // malloc and friends in the test executable), to prove the real-time rules.
        .target(name: "RealtimeProbe", path: "Tests/RealtimeProbe", linkerSettings: [.linkedLibrary("dl")]),
        .testTarget(name: "Codec8_24Tests", dependencies: ["Codec8_24", "TestSupport"]),
        .testTarget(name: "HALTests", dependencies: ["HAL", "TestSupport"]),
        .testTarget(name: "BoardTests", dependencies: ["Board", "TestSupport", "RealtimeProbe"], exclude: ["Fixtures"]),
        .testTarget(name: "QueueTests", dependencies: ["Queue", "HAL", "TestSupport", "RealtimeProbe"], exclude: ["Fixtures"]),
        .testTarget(name: "applianceTests", dependencies: ["appliance", "HAL", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
