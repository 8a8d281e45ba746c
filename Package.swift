// swift-tools-version:6.0
import PackageDescription

// The data's path is the module graph:
//   timeline (AVTJSON → AVTReplay) → trackers → hub → metricalc (AVTCore) → backend (AVTReplay) → avtreplay.
let package = Package(
    name: "avtreplay",
    products: [
        // The engine, for users who plug their own trackers, hubs, metricalcs or backends in Swift.
        .library(name: "AVTReplay", targets: ["AVTCore", "AVTJSON", "AVTReplay"]),
        .executable(name: "avtreplay", targets: ["avtreplay"]),
    ],
    dependencies: [
        // Saves writing a command-line parser with help, completion and validation by hand.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // OpenAVT's instrument chain on a virtual clock: models, instrument, hubs, metricalc, buffers.
        .target(name: "AVTCore"),
        // A strict, fast JSON reader that keeps source locations, and a deterministic writer.
        .target(name: "AVTJSON"),
        // The system zlib, for gzip request bodies (New Relic asks for compression). Debian: zlib1g-dev.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // Timelines in, records out: decoding, trackers, the replay driver, encoders, delivery.
        .target(name: "AVTReplay", dependencies: ["AVTCore", "AVTJSON", "CZlib"]),
        // The command-line front end: argument parsing and exit codes only.
        .executableTarget(
            name: "avtreplay",
            dependencies: ["AVTReplay", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // Mutation fuzzer for the three timeline parsers (scripts/fuzz runs it); not shipped.
        .executableTarget(name: "AVTReplayFuzz", dependencies: ["AVTReplay"]),
        .testTarget(name: "AVTCoreTests", dependencies: ["AVTCore"]),
        .testTarget(name: "AVTJSONTests", dependencies: ["AVTJSON"]),
        // The malformed-input corpus and the JUnit schema are read from the source tree by path.
        .testTarget(name: "AVTReplayTests", dependencies: ["AVTReplay"], exclude: ["Fuzz/Corpus", "Check/junit.xsd"]),
        .testTarget(name: "AvtreplayCLITests", dependencies: ["avtreplay", "CZlib"]),
    ]
)
