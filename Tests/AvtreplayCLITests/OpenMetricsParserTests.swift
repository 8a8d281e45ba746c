import Foundation
import XCTest

/// `--format openmetrics` read by the Prometheus project's own Python parser
/// (`prometheus_client.openmetrics.parser`, Debian package python3-prometheus-client), which
/// holds the text to the OpenMetrics rules `promtool` does not check: one block per family, and
/// within it each series' samples together, their timestamps not going back.
final class OpenMetricsParserTests: XCTestCase {
    /// Parses the text; prints `families samples`, or fails with the parser's error.
    private static let script = """
        import sys
        from prometheus_client import samples
        # Debian's 0.16 compares timestamps wrongly (1.999 > 2.000: "or self.nsec > other.nsec");
        # this is the comparison later releases make.
        samples.Timestamp.__gt__ = lambda a, b: a.nsec > b.nsec if a.sec == b.sec else a.sec > b.sec
        # Its duplicate check ("not a duplicate due to timestamp truncation") remembers a group's
        # series across the group's timestamps, so a histogram's second point keeps only its first
        # bucket ("+Inf bucket missing"); the check as its comment means it, within one timestamp.
        import inspect
        from prometheus_client.openmetrics import parser
        old = "if sample.timestamp != group_timestamp or series_id not in group_timestamp_samples:"
        source = inspect.getsource(parser)
        assert old in source, "the parser changed: look at its duplicate check again"
        source = source.replace(old, "if sample.timestamp != group_timestamp:\\n"
            + "                group_timestamp_samples = set()\\n"
            + "            if series_id not in group_timestamp_samples:")
        exec(compile(source, parser.__file__, "exec"), parser.__dict__)
        families = list(parser.text_string_to_metric_families(sys.stdin.read()))
        print(len(families), sum(len(f.samples) for f in families))
        """

    private func parse(_ text: String) throws -> (families: Int, samples: Int) {
        let python = "/usr/bin/python3"
        let probe = try PrometheusTools.run(
            python, ["-c", "import importlib.util as u; print(u.find_spec('prometheus_client') is not None)"])
        guard probe.hasPrefix("True") else {
            if ProcessInfo.processInfo.environment["AVTREPLAY_REQUIRE_TOOLS"] == "1" {
                XCTFail("prometheus_client is not installed: scripts/test installs python3-prometheus-client")
            }
            throw XCTSkip("prometheus_client is not installed (Debian package python3-prometheus-client)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", Self.script]
        let input = Pipe()
        let out = Pipe()
        let err = Pipe()
        (process.standardInput, process.standardOutput, process.standardError) = (input, out, err)
        try process.run()
        // Written from another thread: the parser reads it all before it prints anything.
        let writer = Thread { [text] in
            input.fileHandleForWriting.write(Data(text.utf8))
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let problem = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, problem.split(separator: "\n").last.map(String.init) ?? "")
        let numbers = printed.split(separator: " ").compactMap {
            Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        guard numbers.count == 2 else { return (0, 0) }
        return (numbers[0], numbers[1])
    }

    /// Every sample line of the text, and every family it describes.
    private func counts(_ text: String) -> (families: Int, samples: Int) {
        let lines = text.split(separator: "\n")
        return (lines.filter { $0.hasPrefix("# TYPE ") }.count, lines.filter { !$0.hasPrefix("#") }.count)
    }

    func testOneSessionParsesWhole() throws {
        let run = try CLI.run(["run", "fixtures/happy-path.json", "--format", "openmetrics"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let parsed = try parse(run.stdout)
        XCTAssertEqual(parsed.families, counts(run.stdout).families)
        XCTAssertEqual(parsed.samples, counts(run.stdout).samples)
    }

    func testAFolderOfSessionsParsesWhole() throws {
        let dir = try CLI.fixtureDirectory(["happy-path", "preroll-ads", "ima-preroll", "avplayer-session"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try CLI.run(["run", dir.path, "--format", "openmetrics", "--jobs", "2"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let parsed = try parse(run.stdout)
        XCTAssertEqual(parsed.families, counts(run.stdout).families)
        XCTAssertEqual(parsed.samples, counts(run.stdout).samples)
        XCTAssertGreaterThan(parsed.samples, 500)
    }
}
