import AVTAnalysis
import AVTKPI
import AVTOutput
import AVTReplay
import ArgumentParser

extension AVTReplayCommand {
    struct Diff: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Compare two outputs (expected and actual JSON Lines records).",
            discussion: """
                Records are normalised before comparing: playbackId, streamId and the instrument part of \
                senderId are renamed by first appearance, so outputs with random ids compare equal. Records \
                are aligned (Myers' diff on type, action or metric name, tracker and session), so a missing \
                or extra record is reported as such and later records still line up; aligned records are \
                then compared whole: t, time, metricType, value, every attribute and any other member, \
                numbers by value and by kind (2500000 is not 2500000.0, as backends type them). Records with a different key are never \
                paired, at any size: a renamed metric is one missing and one extra record; nor are records more \
                than 5 s (plus --tolerance) apart. Differences are listed in time order, each with its playback id \
                as normalised and as the file holds it.

                --tolerance loosens times only (t, time, timeSince*, accum*, deltaPlayTime and the ms-valued \
                metrics StartTime, PlayTime, RebufferTime); --value-tolerance loosens metric values.

                Exit codes: 0 equal, 1 different, 2 bad input.

                Examples:
                  avtreplay diff expected.jsonl actual.jsonl
                  avtreplay run session.json | avtreplay diff session.expected.jsonl -
                  avtreplay diff a.jsonl b.jsonl --ignore position --tolerance 50 --format json
                  avtreplay diff a.jsonl b.jsonl --value-tolerance 1%,NumRebuffers=1
                """)

        @Argument(help: ArgumentHelp("The expected output, or - for standard input.", valueName: "expected"))
        var expected: String

        @Argument(help: ArgumentHelp("The actual output, or - for standard input.", valueName: "actual"))
        var actual: String

        @OptionGroup var compare: CompareOptions

        @OptionGroup var output: OutputOptions<ComparisonReportOutput>

        func validate() throws {
            if expected == "-" && actual == "-" {
                throw ValidationError("Only one of the two outputs can be standard input.")
            }
        }

        func run() throws {
            // The report must not replace the golden it compares (`diff A B -o A`).
            try output.refuseOverwriting([expected, actual].filter { $0 != "-" })
            let left: [OutputRecord]
            let right: [OutputRecord]
            do {
                left = try Self.read(expected)
                right = try Self.read(actual)
            } catch {
                throw CommandFailure.badInput(GoldenFiles.message(error))
            }
            let comparison = RecordComparator.compare(expected: left, actual: right, options: compare.comparison)
            let name = "\(InputFile.displayName(expected)) ↔ \(InputFile.displayName(actual))"
            try compare.report(
                [CheckCase(name: name, seconds: 0, outcome: .compared(comparison))], single: true, to: output)
        }

        /// A file is read as `check` reads a golden file, so a pretty-printed one is named as such
        /// (standard input cannot be looked at twice, and gets the parser's message).
        private static func read(_ path: String) throws -> [OutputRecord] {
            path == "-" ? try OutputLog.read(path: path) : try GoldenFiles.readExpected(path)
        }
    }
}
