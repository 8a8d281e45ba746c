import AVTAnalysis
import AVTOutput
import AVTReplay
import AVTTimeline
import AVTTrackers
import ArgumentParser
import Foundation

extension AVTReplayCommand {
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replay timelines and compare with their expected outputs (golden files).",
            discussion: """
                Each timeline NAME.json (or .jsonl, .csv) is compared with NAME.expected.jsonl beside it, or \
                with --expect for a single timeline. A directory checks every timeline in it that has an \
                expected output. Comparison as in `avtreplay diff`.

                --update rewrites the expected outputs from what the timelines produce now, and prints \
                what changed (the golden-file workflow).

                Exit codes: 0 all equal (or updated), 1 some differ, 2 bad input.

                Examples:
                  avtreplay check tests/player/session.json
                  avtreplay check tests/player/ --format junit -o report.xml
                  avtreplay check session.json --expect golden/session.jsonl --ignore position
                  avtreplay check tests/player/ --update
                """)

        @Argument(
            help: ArgumentHelp("Timelines, or directories of timelines with expected outputs.", valueName: "timeline"))
        var timelines: [String]

        @Option(
            help: ArgumentHelp(
                "The expected output for a single timeline (default: NAME.expected.jsonl beside it).", valueName: "file"
            ))
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
            if paths.isEmpty {
                throw CommandFailure.badInput("no timeline with an expected output (NAME.expected.jsonl) found")
            }
            var check = GoldenCheck()
            (check.expect, check.comparison, check.csvTrackers) = (expect, compare.comparison, tracker.trackers)
            let cases = update ? check.update(paths) { Diagnostics.printRaw($0) } : check.compare(paths)
            if update && cases.isEmpty { return }
            try compare.report(cases, single: false)
        }
    }
}
