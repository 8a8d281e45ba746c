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
                with --expect for a single timeline. A directory checks every timeline in it (not output \
                records, such as a golden/ folder); a timeline without an expected output is listed as \
                skipped, an expected output without a timeline as orphaned (--strict fails both). Two \
                timelines that would share one expected output (s.json, s.csv) are bad input. \
                Comparison as in `avtreplay diff`. Each timeline's format is detected from its extension \
                and content, as `run` does; --input-format forces one for every timeline (a player's log: \
                exoplayer-log, chrome-media-log, avplayer-accesslog).

                --update writes the expected outputs whose bytes differ from what the timelines produce \
                now (keeping mode and symlinks), and prints what it created, updated and left unchanged.

                Exit codes: 0 all equal (or updated), 1 some differ, 2 bad input.

                Examples:
                  avtreplay check tests/player/session.json
                  avtreplay check tests/player/ --format junit -o report.xml
                  avtreplay check session.json --expect golden/session.jsonl --ignore position
                  avtreplay check tests/player/ --update
                  avtreplay check tests/ --jobs 2 --shard 1/4 --strict
                  avtreplay check logcat.txt --input-format exoplayer-log --update
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

        @Flag(help: "Fail on timelines without an expected output and expected outputs without a timeline.")
        var strict = false

        @OptionGroup var input: InputFormatOptions<TimelinesFormat>

        @OptionGroup var tracker: TrackerOptions

        @OptionGroup var schedule: ScheduleOptions

        @OptionGroup var compare: CompareOptions

        @OptionGroup var limits: LimitOptions

        func validate() throws {
            if timelines.isEmpty { throw ValidationError("Missing expected argument '<timeline> ...'") }
            if expect != nil, timelines.count != 1 { throw ValidationError("--expect goes with exactly one timeline.") }
        }

        func run() throws {
            var suite: GoldenSuite
            do {
                suite = try GoldenSuite(timelines, expect: expect, update: update)
            } catch {
                throw CommandFailure.badInput(error.description)
            }
            do {
                let read = suite.items.flatMap(\.paths)
                try FileIdentity.checkOutputs([compare.output.output], notAmong: timelines + read)
            } catch {
                throw CommandFailure.badInput(error.description)
            }
            suite.items = schedule.select(suite.items)
            var check = GoldenCheck()
            (check.comparison, check.csvTrackers) = (compare.comparison, tracker.trackers)
            check.inputFormat = input.inputFormat
            (check.strict, check.jobs) = (strict, schedule.jobs)
            check.options = limits.runOptions
            let cases = update ? updated(suite, with: check) : check.compare(suite)
            if update && cases.isEmpty { return }
            if compare.format == .junit && compare.output.output != "-" {
                // The CI log gets the verdicts too, not only the XML file.
                Diagnostics.print(CheckReport.summary(cases).trimmingCharacters(in: .newlines))
            }
            try compare.report(cases, single: false)
        }

        private func updated(_ suite: GoldenSuite, with check: GoldenCheck) -> [CheckCase] {
            var counts: [GoldenCheck.Change: Int] = [:]
            let cases = check.update(suite) { line, change in
                Diagnostics.print(line)
                counts[change, default: 0] += 1
            }
            let total = { (change: GoldenCheck.Change) in counts[change] ?? 0 }
            Diagnostics.printRaw(
                "\(total(.created)) created, \(total(.updated)) updated, \(total(.unchanged)) unchanged")
            return cases
        }
    }
}
