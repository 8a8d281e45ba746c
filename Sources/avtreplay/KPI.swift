import AVTAnalysis
import AVTKPI
import AVTOutput
import AVTReplay
import AVTTimeline
import AVTTrackers
import ArgumentParser

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension AVTReplayCommand {
    struct KPI: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "kpi",
            abstract: "Print the KPIs of each playback and session: startup, rebuffering, errors, quality, ads.",
            discussion: """
                Replays each timeline (or reads OpenAVT event logs with --from-events), builds each \
                playback's state history (joining, playing, paused, seeking, buffering, ended, failed…, as \
                ExoPlayer's PlaybackStats keeps it) from every tracker action before the hub and from the \
                players' observations, and computes from it, per playback and per session, the KPIs \
                defined in docs/kpi.md, each with its unit. --definitions picks the industry's variant \
                where definitions disagree (openavt, mux, exoplayer, cta; shaka for HTML5 players); --aggregate adds the pooled \
                values and percentiles across playbacks. --format json gives each playback's state \
                history and format switches too; --states prints them under the table. A timeline with \
                an avmetrics tracker, or an Apple AVMetrics log, also gets the startup breakdown, the \
                slowest and failed requests and a cross-check against Apple's playback summary. A player's own log (ExoPlayer \
                EventLogger, Chrome media-internals, AVPlayer access log) is read as the timeline it \
                shows (docs/player-logs.md).

                Each session is printed as soon as it is replayed (-o: written to a temporary file, renamed \
                at the end); a playback's history is folded into its figures once it is over, so memory \
                stays flat over long sessions and large corpora. Ctrl-C or SIGTERM stops at the session \
                under way: the sessions printed are whole; exit 130 or 143.

                Exit codes: 0 ok, 2 bad input, 130/143 interrupted.

                Examples:
                  avtreplay kpi fixtures/happy-path.json
                  avtreplay kpi recordings/ --format json --aggregate
                  avtreplay kpi recordings/ --jobs 2     # 2 sessions at once, same output
                  avtreplay kpi recordings/ --shard 1/2 --format partial -o 1.jsonl
                  avtreplay kpi --merge 1.jsonl 2.jsonl --aggregate  # as one kpi prints
                  avtreplay kpi session.json --definitions exoplayer
                  avtreplay kpi session.json --states          # the state history, as a table
                  avtreplay kpi --from-events events.jsonl --definitions mux --format csv
                  avtreplay kpi fixtures/avmetrics-log.jsonl   # with the startup breakdown
                  adb logcat -d | avtreplay kpi -              # an EventLogger log
                """)

        @Argument(
            help: ArgumentHelp("Timelines, directories of timelines, or - for standard input.", valueName: "input"))
        var inputs: [String] = []

        @Flag(help: "The inputs are event logs (JSON Lines records, as `avtreplay run` prints), not timelines.")
        var fromEvents = false

        @OptionGroup var input: InputFormatOptions<TimelinesFormat>

        @OptionGroup var definitions: DefinitionsOptions

        @Option(
            help: ArgumentHelp(
                "How to print the KPIs; partial writes what --merge reads (a shard's share of a corpus).",
                valueName: "format"))
        var format: KPIFormat = .table

        @Flag(
            help: """
                The inputs are files of `kpi --format partial`: print the KPIs of all their sessions as one `kpi` \
                over them prints them (sessions by name; the same aggregate).
                """)
        var merge = false

        @Flag(
            help: """
                Add, across all playbacks, the pooled values (sums, then ratios) and each KPI's count, mean, \
                min, p50, p90, p95, p99 and max (every format).
                """)
        var aggregate = false

        @Flag(
            help: """
                After each session's KPI table, print each playback's state history (state, start, duration) \
                and format switches, the history the KPIs come from. --format json always has them.
                """)
        var states = false

        @OptionGroup var tracker: TrackerOptions

        @OptionGroup var schedule: ScheduleOptions

        @OptionGroup var corpus: CorpusOptions

        @OptionGroup var output: OutputOptions<PlainOutput>

        @OptionGroup var limits: LimitOptions

        @OptionGroup var inputLimits: InputLimitOptions

        @OptionGroup var progressOptions: ProgressOptions

        func validate() throws {
            if inputs.isEmpty, corpus.filesFrom == nil {
                throw ValidationError("Missing expected argument '<input> ...'")
            }
            if states, format == .csv || format == .partial {
                throw ValidationError("--states prints tables; use --format table, or json (which has the history)")
            }
            if aggregate, format == .partial {
                throw ValidationError("--format partial has what --aggregate needs; give --aggregate to kpi --merge")
            }
            if merge, fromEvents || corpus.shard != nil || corpus.keepGoing || schedule.jobs > 1 {
                throw ValidationError(
                    "--merge reads partial files whole; --from-events, --shard, --keep-going and --jobs are for the "
                        + "kpi runs that write them")
            }
        }

        func run() throws {
            let inputs = try corpus.inputs(self.inputs)
            try output.refuseOverwriting(inputs)
            let stop = StopRequest()
            Interruption.install(stop)
            let out = try KPIOutput(path: output.output, limit: limits.maxOutputBytes.value, inputs: inputs)
            var bad = 0
            var finished = 0
            let steps = StepCounter()
            let (progress, sizeOf) = progressLine(inputs, steps: steps)
            defer { progress.finish() }
            do {
                var writer = KPIStreamWriter(
                    format: format.stream, definitions: definitions.definitions, aggregate: aggregate, states: states)
                // A merge says nothing before every partial file was checked.
                if !merge { try out.write(writer.start()) }
                // A table or CSV gets each playback as soon as it is over, not the session whole.
                let folded: ((String, String, PlaybackFigures) -> Void)? =
                    writer.folds && !fromEvents && !merge && schedule.jobs == 1
                    ? { session, id, figures in writer.playback(id: id, figures: figures, session: session) } : nil
                let skipped: ((String, TimelineError) -> Void)? =
                    corpus.keepGoing
                    ? { path, error in
                        bad += 1
                        progress.sessionDone(bytes: sizeOf[path])
                        writer.abandon()
                        Diagnostics.error(
                            error.fixing(eventLog: EventLogFix.kpi).description + " (left out: --keep-going)")
                    } : nil
                // Written as soon as the session is replayed: only its aggregate figures stay.
                let each: (SessionKPIs) throws -> Void = { session in
                    if folded != nil {
                        try writer.finish(session, emit: out.write)
                    } else {
                        try out.write(writer.add(session))
                    }
                    finished += 1
                    progress.sessionDone(bytes: sizeOf[session.session])
                }
                let options = limits.runOptions(input: inputLimits)
                let keepSpans = format == .json || format == .partial || states
                if merge {
                    try KPIPartialReader.forEach(
                        inputs, definitions: definitions.definitions, checked: { try out.write(writer.start()) }, each)
                } else if schedule.jobs > 1 {
                    try KPISessions.forEach(
                        inputs, fromEvents: fromEvents, format: input.inputFormat, csvTrackers: tracker.trackers,
                        options: options, keepSpans: keepSpans, warn: PlayerLogWarnings.standardError,
                        shard: corpus.selected, skipped: skipped, stop: stop, steps: steps, jobs: schedule.jobs, each)
                } else {
                    try KPISessions.forEach(
                        inputs, fromEvents: fromEvents, format: input.inputFormat, csvTrackers: tracker.trackers,
                        options: options, keepSpans: keepSpans, warn: PlayerLogWarnings.standardError,
                        shard: corpus.selected, skipped: skipped, stop: stop, folded: folded, steps: steps, each)
                }
                if let signal = stop.signal { throw Self.interrupted(signal, finished: finished, output: out) }
                try out.write(writer.finish())
                try out.close()
            } catch let error as TimelineError {
                if let signal = stop.signal { throw Self.interrupted(signal, finished: finished, output: out) }
                out.discard()
                throw CommandFailure.badInput(error.fixing(eventLog: EventLogFix.kpi).description)
            } catch let failure as CommandFailure {
                out.discard()
                throw failure
            } catch {
                out.discard()
                guard let failure = CommandFailure(error) else { return }
                throw failure
            }
            if bad > 0 {
                let count = bad == 1 ? "1 input was" : "\(bad) inputs were"
                throw CommandFailure.badInput("\(count) bad input and left out; the KPIs are the others'")
            }
        }

        /// A live line on a terminal (not when the KPIs print there), plain lines with
        /// `--progress`: sessions done of those the inputs hold, the steps replayed and, for
        /// timelines, the bytes read and the time left. The sizes are by session name and by path
        /// (a session bad input is known by its path).
        private func progressLine(_ inputs: [String], steps: StepCounter) -> (ProgressLine, [String: Int]) {
            let shown = progressOptions.every != nil || (output.output != "-" || isatty(1) == 0) && isatty(2) != 0
            guard shown, !merge,
                let sessions = try? SessionDiscovery.expand(
                    inputs, keepOutputs: fromEvents ? .always : .never, shard: corpus.selected)
            else { return (ProgressLine(total: 0, quiet: true), [:]) }
            // An event log holds sessions of other names: its bytes are not counted as it goes.
            let sizes = fromEvents ? [] : ProgressLine.sizes(of: sessions)
            var sizeOf: [String: Int] = [:]
            for (path, size) in zip(sessions, sizes) {
                guard let size else { continue }
                sizeOf[path] = size
                sizeOf[KPISessions.name(SessionDiscovery.name(of: path, inputs: inputs))] = size
            }
            let line = ProgressLine(
                total: sessions.count, steps: { steps.value }, quiet: output.output == "-" && isatty(1) != 0,
                every: progressOptions.every, sizes: sizes)
            return (line, sizeOf)
        }

        /// Ctrl-C or SIGTERM: the sessions finished are printed whole, the one under way is not,
        /// and no aggregate follows (it would be of a part of the corpus). A file (`-o`) is left
        /// unwritten: it is complete or absent; what was finished is kept as `FILE.partial`.
        private static func interrupted(_ signal: Int32, finished: Int, output: KPIOutput) -> CommandFailure {
            let sessions = finished == 1 ? "1 session" : "\(finished) sessions"
            let kept =
                output.keepPartial().map {
                    "\(sessions) in full in \(InputFile.displayName($0)); the output file was not written"
                } ?? "\(sessions) printed in full"
            return CommandFailure(
                message:
                    "interrupted (\(signal == SIGINT ? "SIGINT" : "SIGTERM")): \(kept); the session under way and the "
                    + "aggregate were left out",
                status: .interrupted(signal: signal))
        }
    }
}

enum KPIFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json, csv, partial

    /// The writer's format.
    var stream: KPIStreamWriter.Format {
        switch self {
        case .table: .table
        case .json: .json
        case .csv: .csv
        case .partial: .partial
        }
    }
}
