import AVTAnalysis
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
                or extra record is reported as such and later records still line up; t, value and \
                attributes of aligned records are then compared. Records with a different key are never \
                paired, at any size: a renamed metric is one missing and one extra record.

                --tolerance loosens times only (t, timeSince*, accum*, deltaPlayTime and the ms-valued \
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

        func validate() throws {
            if expected == "-" && actual == "-" {
                throw ValidationError("Only one of the two outputs can be standard input.")
            }
        }

        func run() throws {
            // The report must not replace the golden it compares (`diff A B -o A`).
            try compare.output.refuseOverwriting([expected, actual].filter { $0 != "-" })
            let left: [OutputRecord]
            let right: [OutputRecord]
            do {
                left = try OutputLog.read(path: expected)
                right = try OutputLog.read(path: actual)
            } catch {
                throw CommandFailure.badInput(error.description)
            }
            let comparison = RecordComparator.compare(expected: left, actual: right, options: compare.comparison)
            let name = "\(InputFile.displayName(expected)) ↔ \(InputFile.displayName(actual))"
            try compare.report([CheckCase(name: name, seconds: 0, outcome: .compared(comparison))], single: true)
        }
    }
}
