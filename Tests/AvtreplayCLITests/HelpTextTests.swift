import XCTest

/// Every command keeps its flags, and its examples, in `--help` (they are declared in shared
/// option groups, which must not drop or rename one).
final class HelpTextTests: XCTestCase {
    private let flags: [String: [String]] = [
        "run": [
            "--input-format", "--tracker", "--format", "--to", "--newrelic-endpoint", "--mediastream-content-id",
            "--mediastream-unique-id", "--dead-letter", "--delivery-attempts", "--delivery-retry-delay",
            "--delivery-batch",
            "--speed", "--delivery-max-age", "--influx-gzip", "--influx-precision", "--influx-compat",
            "--influx-measurements",
            "--influx-tags", "--graphite-prefix", "--graphite-events", "--graphite-step", "--graphite-aggregate",
            "--graphite-retention", "--jobs", "--shard", "-o, --output", "--seed", "--random-ids", "--hub",
            "--no-metrics",
            "--ping-interval", "--until", "--start-time", "--end-time", "--events-only", "--metrics-only",
            "--delivery-timeout", "--influx-retention",
        ],
        "send": [
            "--to", "--trust-destinations", "--newrelic-endpoint", "--dead-letter", "--delivery-attempts",
            "--delivery-retry-delay",
            "--delivery-batch", "--delivery-timeout", "--graphite-retention", "--influx-retention", "--influx-gzip",
        ],
        "check": [
            "--expect", "--update", "--tracker", "--ignore", "--tolerance", "--ignore-order", "--format",
            "-o, --output",
        ],
        "diff": ["--ignore", "--tolerance", "--ignore-order", "--format", "-o, --output"],
        "convert": ["--input-format", "--output-format", "--tracker"],
        "kpi": [
            "--from-events", "--input-format", "--definitions", "--format", "--aggregate", "--states", "--tracker",
            "-o, --output",
        ],
        "report": ["--from-events", "--definitions", "--worst", "--tracker", "-o, --output"],
        "precall": [
            "--input-format", "--tracker", "--subscriber", "--profile", "--window", "--duration", "--video-kbps",
            "--video-loss",
            "--audio-kbps", "--audio-loss", "--audio-retest", "--require", "--format", "-o, --output",
        ],
    ]

    func testEveryCommandKeepsItsFlagsAndExamples() throws {
        for (command, names) in flags {
            let help = try CLI.run([command, "--help"])
            XCTAssertEqual(help.status, 0, command)
            for name in names { XCTAssertTrue(help.stdout.contains("  \(name) "), "\(command) \(name)") }
            XCTAssertTrue(help.stdout.contains("Examples:"), command)
            // A line continuation written as `\\` in a Swift string shows as a stray backslash.
            XCTAssertFalse(help.stdout.contains("\\\n") || help.stdout.contains(" \\ "), "\(command): stray backslash")
            // Examples fit the 80 columns of a help page: a wrapped one reads as two commands.
            let examples = help.stdout.components(separatedBy: "Examples:\n").dropFirst().first ?? ""
            for line in examples.split(separator: "\n", omittingEmptySubsequences: false).prefix(while: { !$0.isEmpty })
            {
                XCTAssertTrue(line.hasPrefix("  "), "\(command): an example wraps mid-command: \(line)")
            }
        }
    }

    /// The help with line wrapping undone.
    private func help(_ command: String) throws -> String {
        try CLI.run([command, "--help"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    func testDefaultsStayInTheHelp() throws {
        let run = try help("run")
        XCTAssertTrue(run.contains("(default: avtreplay-undelivered.jsonl)"), run)
        XCTAssertTrue(run.contains("(default: 5000)"), run)
        let send = try help("send")
        XCTAssertTrue(send.contains("(default: avtreplay-undelivered-again.jsonl)"), send)
        XCTAssertTrue(send.contains("default: auto)"), send)
        let report = try help("report")
        XCTAssertTrue(report.contains("(default: report.html)"), report)
    }
}
