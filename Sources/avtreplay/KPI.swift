import AVTAnalysis
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
                where definitions disagree (openavt, mux, exoplayer, cta); --aggregate adds the pooled \
                values and percentiles across playbacks. A timeline with an avmetrics tracker, or an \
                Apple AVMetrics log, also gets the startup breakdown, the slowest and failed requests and \
                a cross-check against Apple's playback summary. A player's own log (ExoPlayer \
                EventLogger, Chrome media-internals, AVPlayer access log) is read as the timeline it \
                shows (docs/player-logs.md).

                Exit codes: 0 ok, 2 bad input.

                Examples:
                  avtreplay kpi fixtures/happy-path.json
                  avtreplay kpi recordings/ --format json --aggregate
                  avtreplay kpi session.json --definitions exoplayer
                  avtreplay kpi --from-events events.jsonl --definitions mux --format csv
                  avtreplay kpi fixtures/avmetrics-log.jsonl   # with the startup breakdown
                  adb logcat -d | avtreplay kpi -              # an EventLogger log
                """)

        @Argument(
            help: ArgumentHelp("Timelines, directories of timelines, or - for standard input.", valueName: "input"))
        var inputs: [String]

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

        @OptionGroup var tracker: TrackerOptions

        @OptionGroup var output: OutputOptions<PlainOutput>

        @OptionGroup var limits: LimitOptions

        @OptionGroup var inputLimits: InputLimitOptions

        func validate() throws {
            if inputs.isEmpty { throw ValidationError("Missing expected argument '<input> ...'") }
        }

        func run() throws {
            try output.refuseOverwriting(inputs)
            let sessions: [SessionKPIs]
            do {
                sessions = try KPISessions.load(
                    inputs, fromEvents: fromEvents, format: input.inputFormat, csvTrackers: tracker.trackers,
                    options: limits.runOptions(input: inputLimits))
            } catch let error as TimelineError {
                throw CommandFailure.badInput(error.fixing(eventLog: EventLogFix.kpi).description)
            }
            let text: String
            switch format {
            case .table: text = KPIReport.table(sessions, definitions: definitions.definitions, aggregate: aggregate)
            case .json: text = KPIReport.json(sessions, definitions: definitions.definitions, aggregate: aggregate)
            case .csv: text = KPIReport.csv(sessions, definitions: definitions.definitions, aggregate: aggregate)
            }
            try limits.checkOutput(text, of: inputs)
            try output.write(text)
        }
    }
}

enum KPIFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json, csv
}
