import AVTAnalysis
import AVTFormats
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
                records, such as a golden/ folder). A timeline without an expected output, and an expected \
                output without a timeline, fail the check (--allow-missing only lists them, as SKIP and \
                ORPHAN); a file beside its expected output that is no longer a readable timeline is an \
                error. Two timelines that would share one expected output (s.json, s.csv) are bad input. \
                Comparison as in `avtreplay diff`: the whole record (t, time, action or name, tracker, \
                session, metricType, value, every attribute and any other member, and whether a number \
                is an integer or a fraction); ids are normalised, and only --ignore, --tolerance, \
                --value-tolerance and --ignore-order loosen it. Each timeline's format is detected from its extension \
                and content, as `run` does; --input-format forces one for every timeline (a player's log: \
                exoplayer-log, chrome-media-log, avplayer-accesslog).

                --update writes the expected outputs whose bytes differ from what the timelines produce \
                now (keeping mode and symlinks), and reports what it created, updated and left unchanged \
                (to standard output or -o FILE; --format json for tools).

                Ctrl-C or SIGTERM: no case starts after it and the report holds the cases finished (an -o \
                file is kept as FILE.partial); exit 130 or 143.

                Exit codes: 0 all equal (or updated), 1 some differ or are missing, 2 bad input (an unreadable \
                timeline or expected output), 130/143 interrupted.

                Examples:
                  avtreplay check tests/player/session.json
                  avtreplay check tests/player/ --format junit -o report.xml
                  avtreplay check session.json --expect golden/session.jsonl --ignore position
                  avtreplay check tests/player/ --update
                  avtreplay check tests/ --jobs 2 --shard 1/4
                  avtreplay check logcat.txt --input-format exoplayer-log --update
                """)

        @Argument(
            help: ArgumentHelp("Timelines, or directories of timelines with expected outputs.", valueName: "timeline"))
        var timelines: [String] = []

        @Option(
            help: ArgumentHelp(
                "The expected output for a single timeline (default: NAME.expected.jsonl beside it).", valueName: "file"
            ))
        var expect: String?

        @Flag(help: "Rewrite the expected outputs from the produced ones instead of comparing.")
        var update = false

        @Flag(
            help:
                "Print a line per case on standard error as it finishes ([N/TOTAL] PASS …); a terminal shows a counter anyway."
        )
        var progress = false

        @Option(
            help: ArgumentHelp(
                "Also print a status line on standard error every this many seconds (cases, steps and their rate, "
                    + "time left), for logs such as kubectl logs where a counter does not show.",
                valueName: "seconds"))
        var progressEvery: Double?

        @Flag(
            help:
                "List timelines without an expected output and expected outputs without a timeline (SKIP, ORPHAN) instead of failing."
        )
        var allowMissing = false

        /// The default since missing golden files fail; still accepted so CI scripts keep working.
        @Flag(help: .hidden)
        var strict = false

        @OptionGroup var input: InputFormatOptions<TimelinesFormat>

        @OptionGroup var tracker: TrackerOptions

        @OptionGroup var schedule: ScheduleOptions

        @OptionGroup var corpus: CorpusOptions

        @OptionGroup var compare: CompareOptions

        @OptionGroup var output: OutputOptions<ComparisonReportOutput>

        @OptionGroup var limits: LimitOptions

        @OptionGroup var inputLimits: InputLimitOptions

        func validate() throws {
            if timelines.isEmpty, corpus.filesFrom == nil {
                throw ValidationError("Missing expected argument '<timeline> ...'")
            }
            if expect != nil, timelines.count != 1 { throw ValidationError("--expect goes with exactly one timeline.") }
            if strict && allowMissing { throw ValidationError("--strict and --allow-missing contradict each other.") }
            if let progressEvery, !progressEvery.isFinite || progressEvery < 0.1 {
                throw ValidationError("--progress-every expects seconds, 0.1 or more; got \(progressEvery).")
            }
            if update && compare.format == .junit {
                throw ValidationError("--update reports in text or json (--format junit is for checking).")
            }
        }

        func run() throws {
            var checker = GoldenChecker()
            (checker.comparison, checker.csvTrackers) = (compare.comparison, tracker.trackers)
            checker.inputFormat = input.inputFormat
            (checker.allowMissing, checker.jobs) = (allowMissing, schedule.jobs)
            checker.options = limits.runOptions(input: inputLimits)
            let stop = StopRequest()
            Interruption.install(stop)
            (checker.stop, checker.steps) = (stop, StepCounter())
            let plan: GoldenPlan
            let timelines = try corpus.inputs(self.timelines)
            do {
                try FileIdentity.checkOutputs([output.output], notAmong: timelines)
                plan = try checker.plan(
                    timelines, expect: expect, update: update, shard: corpus.selected,
                    outputs: [output.output])
            } catch {
                throw CommandFailure.badInput("\(error)")
            }
            if update { return try updated(plan.suite, with: checker.engine) }
            let totals = try checked(plan, with: checker)
            compare.warnAboutUnmatchedNames(totals)
            // The report said why; only the exit code is left to give.
            if totals.status != .ok { throw ExitCode(totals.status.code) }
        }

        /// Reports each case as it finishes and then lets it go: memory stays that of a few
        /// cases, and a CI log shows the verdicts as they come. An `-o` file appears whole at the
        /// end, or not at all.
        private func checked(_ plan: GoldenPlan, with checker: GoldenChecker) throws -> CheckTotals {
            let toFile = output.output != "-"
            // With a JUnit file, the CI log gets the verdicts too (as they come), not only the XML.
            let verdictsOnStderr = compare.format == .junit && toFile
            // A report printed to the terminal shows the progress itself; the counter would
            // share its lines.
            let steps = checker.steps ?? StepCounter()
            let progress = ProgressLine(
                total: plan.count, unit: "cases", steps: { steps.value },
                quiet: !toFile && isatty(1) != 0, every: progressEvery)
            defer { progress.finish() }
            var done = 0
            var reporter: CheckReportWriter?
            do {
                let sink: ByteSink = toFile ? try AtomicFileSink(path: output.output) : FileDescriptorSink()
                let writer = try CheckReportWriter(
                    format: compare.format, to: sink, spoolDirectory: toFile ? Self.folder(of: output.output) : nil,
                    color: !toFile && Diagnostics.colorAllowed(fd: 1),
                    maxDifferences: compare.maxDifferences == 0 ? .max : compare.maxDifferences)
                reporter = writer
                defer { if verdictsOnStderr { Diagnostics.print(writer.totals.line) } }
                try checker.check(plan) { result in
                    // A case finished after Ctrl-C may be one cut short: the report ends before it.
                    guard checker.stop?.isRequested != true else { return }
                    done += 1
                    try writer.add(result.testCase)
                    if self.progress {
                        progress.print("[\(done)/\(plan.count)] " + result.line)
                    } else if verdictsOnStderr {
                        progress.print(result.line)
                    }
                    progress.sessionDone()
                }
                try writer.finish { ISO8601.format(epochMilliseconds: Int(Date().timeIntervalSince1970 * 1000)) }
                let signal = checker.stop?.signal
                try PartialOutput.close(sink, target: sink, interrupted: signal != nil)
                if let signal { throw Self.interrupted(signal, done: done, of: plan.count, unit: "cases checked") }
                return writer.totals
            } catch let error as OutputError {
                // A reader that went away (`check | head`) is no failure; the verdicts so far count.
                guard error.isBrokenPipe, let reporter else {
                    throw CommandFailure(message: error.description, status: .failure)
                }
                return reporter.totals
            } catch let error as TimelineError {
                // The folder changed between the suite's first walk and this one.
                throw CommandFailure.badInput(error.description)
            }
        }

        /// Ctrl-C or SIGTERM: no case starts after it, and the report holds the cases finished
        /// before it; one under way is left out (it may have been cut short).
        private static func interrupted(_ signal: Int32, done: Int, of total: Int, unit: String) -> CommandFailure {
            CommandFailure(
                message:
                    "interrupted (\(signal == SIGINT ? "SIGINT" : "SIGTERM")): the report holds \(done) of \(total) "
                    + "\(unit); the others were left out",
                status: .interrupted(signal: signal))
        }

        /// The directory a report file goes into, where its spooled cases wait.
        private static func folder(of path: String) -> String {
            guard let slash = path.lastIndex(of: "/") else { return "." }
            return slash == path.startIndex ? "/" : String(path[..<slash])
        }

        /// The update's report goes where a check's would (standard output, or `-o`), so a bot
        /// can read it; errors and orphaned golden files follow as in a check, and set the status.
        private func updated(_ suite: GoldenSuite, with check: GoldenCheck) throws {
            var files: [(path: String, line: String, change: GoldenCheck.Change)] = []
            // A line names a file of the checkout: escaped, as everything that reaches a terminal.
            var cases: [CheckCase] = []
            try check.update(suite) {
                files.append(($0, TerminalText.escapedKeepingNewlines($1), $2))
            } each: {
                // After Ctrl-C a read cut short is no error of the suite's.
                if check.stop?.isRequested != true { cases.append($0) }
            }
            let count = { (change: GoldenCheck.Change) in files.filter { $0.change == change }.count }
            let text: String
            if compare.format == .json {
                text = UpdateReport.json(files: files, cases: cases)
            } else {
                var lines = files.map(\.line)
                if !cases.isEmpty { lines.append(CheckReport.summary(cases).trimmingCharacters(in: .newlines)) }
                lines.append("\(count(.created)) created, \(count(.updated)) updated, \(count(.unchanged)) unchanged")
                text = lines.joined(separator: "\n") + "\n"
            }
            try output.write(text, interrupted: check.stop?.signal != nil)
            if let signal = check.stop?.signal {
                throw Self.interrupted(signal, done: files.count + cases.count, of: suite.count, unit: "cases updated")
            }
            let status = CheckReport.status(cases)
            if status != .ok { throw ExitCode(status.code) }
        }
    }
}
