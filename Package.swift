// swift-tools-version:6.0
import PackageDescription

// The targets follow the data's path:
//   timeline (AVTTimeline) → trackers (AVTTrackers) → hub → metricalc (AVTCore)
//   → records and wire formats (AVTOutput) → network (AVTDelivery),
// driven by AVTReplay; AVTKPI turns a replay into state histories and KPIs, and AVTAnalysis
// reads what a replay produced (check, report, precall).
// AVTJSON and AVTFormats are the leaf scanners and writers of the text formats.
let package = Package(
    name: "avtreplay",
    products: [
        // OpenAVT's engine alone: instrument, hubs, metricalc and the protocols to plug into them.
        .library(name: "AVTCore", targets: ["AVTCore"]),
        // One import for the three jobs: the engine with timelines, trackers, the replayer,
        // encoders, KPIs and check (AVTReplayKit re-exports their modules). No system library.
        .library(name: "AVTReplayKit", targets: ["AVTReplayKit"]),
        // Network backends, for those who ship records to servers; links the system zlib.
        .library(name: "AVTDelivery", targets: ["AVTDelivery"]),
        .executable(name: "avtreplay", targets: ["avtreplay"]),
    ],
    dependencies: [
        // Saves writing a command-line parser with help, completion and validation by hand.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2")
    ],
    targets: [
        // OpenAVT's instrument chain on a virtual clock: models, instrument, hubs, metricalc, buffers.
        .target(name: "AVTCore"),
        // A strict, fast JSON reader that keeps source locations, and a deterministic writer.
        .target(name: "AVTJSON"),
        // CSV fields and ISO 8601 times, read and written without Foundation.
        .target(name: "AVTFormats", dependencies: ["AVTCore", "AVTJSON"]),
        // Player trackers: the logic that turns player observations into OpenAVT actions.
        .target(name: "AVTTrackers", dependencies: ["AVTCore", "AVTJSON", "AVTFormats"]),
        // Timelines in: the model and the JSON, JSONL, CSV and AVMetrics-log readers. Each step is
        // checked against its tracker's rules, so the readers know the trackers.
        .target(name: "AVTTimeline", dependencies: ["AVTCore", "AVTJSON", "AVTFormats", "AVTTrackers"]),
        // Records out: the record encoder, JSONL/CSV/table backends, sinks, InfluxDB and Graphite
        // wire encoders, Mediastream events, and timeline writers (convert).
        .target(name: "AVTOutput", dependencies: ["AVTCore", "AVTJSON", "AVTFormats", "AVTTrackers", "AVTTimeline"]),
        // The replay driver: a timeline through its trackers into backends, one or many sessions.
        .target(
            name: "AVTReplay",
            dependencies: ["AVTCore", "AVTJSON", "AVTFormats", "AVTTrackers", "AVTTimeline", "AVTOutput"]),
        // The system zlib, for gzip request bodies (New Relic asks for compression). Debian: zlib1g-dev.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // Network backends: InfluxDB, Graphite, New Relic, Mediastream; retries, dead letters.
        // The only target that links zlib.
        .target(
            name: "AVTDelivery",
            dependencies: ["AVTCore", "AVTJSON", "AVTFormats", "AVTTimeline", "AVTOutput", "AVTReplay", "CZlib"]),
        // KPIs: each playback's state history (PlaybackStats' states, Shaka's), the definition
        // sets that turn it into KPIs, and their aggregates.
        .target(
            name: "AVTKPI",
            dependencies: ["AVTCore", "AVTJSON", "AVTFormats", "AVTTrackers", "AVTTimeline", "AVTOutput", "AVTReplay"]),
        // What a replay amounts to: check/diff against goldens, the HTML report, pre-call verdicts.
        .target(
            name: "AVTAnalysis",
            dependencies: [
                "AVTCore", "AVTJSON", "AVTFormats", "AVTTrackers", "AVTTimeline", "AVTOutput", "AVTReplay", "AVTKPI",
            ]),
        // The library's one import: re-exports every module a replay, KPIs and check need.
        .target(
            name: "AVTReplayKit",
            dependencies: [
                "AVTCore", "AVTJSON", "AVTTrackers", "AVTTimeline", "AVTOutput", "AVTReplay", "AVTKPI", "AVTAnalysis",
            ]),
        // The command-line front end: argument parsing and exit codes only.
        .executableTarget(
            name: "avtreplay",
            dependencies: [
                "AVTCore", "AVTJSON", "AVTFormats", "AVTTrackers", "AVTTimeline", "AVTOutput", "AVTReplay",
                "AVTDelivery", "AVTKPI",
                "AVTAnalysis", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Mutation fuzzer for the three timeline parsers (scripts/fuzz runs it); not shipped.
        .executableTarget(
            name: "AVTReplayFuzz", dependencies: ["AVTCore", "AVTJSON", "AVTTimeline", "AVTOutput", "AVTReplay"]),
        .testTarget(name: "AVTCoreTests", dependencies: ["AVTCore"]),
        .testTarget(name: "AVTJSONTests", dependencies: ["AVTJSON"]),
        // The malformed-input corpus and the JUnit schema are read from the source tree by path.
        .testTarget(
            name: "AVTReplayTests",
            dependencies: [
                "AVTCore", "AVTJSON", "AVTFormats", "AVTTrackers", "AVTTimeline", "AVTOutput", "AVTReplay",
                "AVTDelivery", "AVTKPI", "AVTAnalysis", "AVTReplayKit",
            ],
            exclude: ["Fuzz/Corpus", "Check/junit.xsd"]),
        .testTarget(
            name: "AvtreplayCLITests",
            dependencies: [
                "avtreplay", "AVTCore", "AVTJSON", "AVTTimeline", "AVTOutput", "AVTReplay", "AVTDelivery", "CZlib",
                "AVTReplayKit",
            ]),
    ]
)
