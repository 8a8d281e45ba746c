import AVTAnalysis
import AVTKPI
import AVTOutput
import AVTReplay
import AVTTimeline
import AVTTrackers
import ArgumentParser

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

                Exit codes: 0 ok, 2 bad input.

                Examples:
                  avtreplay kpi fixtures/happy-path.json
                  avtreplay kpi recordings/ --format json --aggregate
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

        @Option(help: ArgumentHelp("How to print the KPIs.", valueName: "format"))
        var format: KPIFormat = .table

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

        @OptionGroup var corpus: CorpusOptions

        @OptionGroup var output: OutputOptions<PlainOutput>

        @OptionGroup var limits: LimitOptions

        @OptionGroup var inputLimits: InputLimitOptions

        func validate() throws {
            if inputs.isEmpty, corpus.filesFrom == nil {
                throw ValidationError("Missing expected argument '<input> ...'")
            }
            if states, format == .csv {
                throw ValidationError("--states prints tables; use --format table, or json (which has the history)")
            }
        }

        func run() throws {
            try output.refuseOverwriting(inputs)
            let text: String
            var bad = 0
            do {
                text = try render { _, error in
                    bad += 1
                    Diagnostics.error(error.fixing(eventLog: EventLogFix.kpi).description + " (left out: --keep-going)")
                }
            } catch let error as TimelineError {
                throw CommandFailure.badInput(error.fixing(eventLog: EventLogFix.kpi).description)
            }
            try limits.checkOutput(text, of: inputs)
            try output.write(text)
            if bad > 0 {
                let count = bad == 1 ? "1 input was" : "\(bad) inputs were"
                throw CommandFailure.badInput("\(count) bad input and left out; the KPIs are the others'")
            }
        }

        /// The output. JSON and --states print each session's state history as it is read, then
        /// keep only its figures: one session's spans are in memory at a time. Otherwise no
        /// history is kept at all (the figures are sums), so memory stays flat over long sessions.
        private func render(skipped: @escaping (String, TimelineError) -> Void) throws -> String {
            let definitions = definitions.definitions
            let keepSpans = format == .json || states
            var kept: [SessionKPIs] = []
            var json = KPIJSONWriter(definitions: definitions, aggregate: aggregate)
            var table = ""
            try KPISessions.forEach(
                try corpus.inputs(inputs), fromEvents: fromEvents, format: input.inputFormat,
                csvTrackers: tracker.trackers,
                options: limits.runOptions(input: inputLimits), keepSpans: keepSpans,
                warn: PlayerLogWarnings.standardError, shard: corpus.selected, skipped: corpus.keepGoing ? skipped : nil
            ) { session in
                switch format {
                case .json: json.add(session)
                case .table where states:
                    table += KPIReport.table(session, definitions: definitions) + StateHistoryTable.render(session)
                case .table: table += KPIReport.table(session, definitions: definitions)
                case .csv: break
                }
                // The JSON writer keeps what its aggregate needs itself.
                if format != .json { kept.append(session.withoutHistories) }
            }
            switch format {
            case .json: return json.finish()
            case .table: return table + (aggregate ? KPIReport.aggregateTable(kept, definitions: definitions) : "")
            case .csv: return KPIReport.csv(kept, definitions: definitions, aggregate: aggregate)
            }
        }
    }
}

enum KPIFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json, csv
}
