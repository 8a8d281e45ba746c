import AVTReplay
import ArgumentParser
import Foundation

extension AVTReplayCommand {
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replay timelines and compare with their expected outputs (golden files).",
            discussion: """
                Each timeline NAME.json (or .jsonl, .csv) is compared with NAME.expected.jsonl beside it, or \\
                with --expect for a single timeline. A directory checks every timeline in it that has an \\
                expected output. Comparison as in `avtreplay diff`.

                --update rewrites the expected outputs from what the timelines produce now, and prints \\
                what changed (the golden-file workflow).

                Exit codes: 0 all equal (or updated), 1 some differ, 2 bad input.

                Examples:
                  avtreplay check tests/player/session.json
                  avtreplay check tests/player/ --format junit -o report.xml
                  avtreplay check session.json --expect golden/session.jsonl --ignore position
                  avtreplay check tests/player/ --update
                """)

        @Argument(help: ArgumentHelp("Timelines, or directories of timelines with expected outputs.", valueName: "timeline"))
        var timelines: [String]

        @Option(help: ArgumentHelp("The expected output for a single timeline (default: NAME.expected.jsonl beside it).", valueName: "file"))
        var expect: String?

        @Flag(help: "Rewrite the expected outputs from the produced ones instead of comparing.")
        var update = false

        @OptionGroup var tracker: TrackerOptions

        @OptionGroup var compare: CompareOptions

        func validate() throws {
            if timelines.isEmpty { throw ValidationError("Missing expected argument '<timeline> ...'") }
            if expect != nil, timelines.count != 1 { throw ValidationError("--expect goes with exactly one timeline.") }
        }

        func run() throws {
            let paths: [String]
            do {
                paths = try GoldenFiles.timelines(timelines, includingNew: update)
            } catch {
                throw CommandFailure.badInput(error.description)
            }
            if paths.isEmpty { throw CommandFailure.badInput("no timeline with an expected output (NAME.expected.jsonl) found") }
            var cases: [CheckCase] = []
            for path in paths {
                let started = Date()
                let expectedPath = expect ?? GoldenFiles.expectedPath(for: path)
                let outcome: CheckCase.Outcome
                do {
                    let produced = try GoldenFiles.produce(path, options: RunOptions(), csvTrackers: tracker.trackers)
                    let actual = try OutputLog.read(ByteInput(bytes: produced, name: path))
                    if update {
                        try updateGolden(expectedPath, produced: produced, actual: actual)
                        continue
                    }
                    let expected = try OutputLog.read(path: expectedPath)
                    outcome = .compared(RecordComparator.compare(expected: expected, actual: actual, options: compare.comparison))
                } catch let error as TimelineError {
                    outcome = .error(error.description)
                } catch {
                    outcome = .error("\(error)")
                }
                cases.append(CheckCase(name: path, seconds: Date().timeIntervalSince(started), outcome: outcome))
            }
            if update && cases.isEmpty { return }
            let code = try compare.report(cases, single: false)
            if code != .success { throw code }
        }

        /// Writes the produced output as the new golden file and says what that changed.
        private func updateGolden(_ expectedPath: String, produced: [UInt8], actual: [OutputRecord]) throws {
            let previous = try? OutputLog.read(path: expectedPath)
            let sink = try AtomicFileSink(path: expectedPath)
            try sink.write(produced)
            try sink.close()
            guard let previous else {
                Diagnostics.printRaw("created \(expectedPath): \(actual.count) records")
                return
            }
            let comparison = RecordComparator.compare(expected: previous, actual: actual, options: ComparisonOptions())
            Diagnostics.printRaw(comparison.isEqual ? "unchanged \(expectedPath)" : "updated \(expectedPath): \(comparison.summary)")
        }
    }
}
