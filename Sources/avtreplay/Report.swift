import AVTAnalysis
import AVTOutput
import AVTReplay
import AVTTimeline
import AVTTrackers
import ArgumentParser

extension AVTReplayCommand {
    struct Report: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "report",
            abstract: "Write a self-contained HTML report: KPIs, playback states and a timeline per session.",
            discussion: """
                Replays each timeline (or reads event logs, as `avtreplay run` writes them) and writes one HTML \
                file with no external resources: per session its KPI cards and table, the played bitrate and \
                resolution, and a timeline: a lane per playback with its states (joining, playing, paused, \
                seeking, buffering, failed…) and labelled marks (start, rebuffers, seeks, errors, ads, end), \
                all from the state history the KPIs come from; a lane per tracker with every event the hub \
                delivered as a tick; and the metricalc's metrics. For a directory or several sessions, an \
                overview comes first: histograms of startup time, rebuffer ratio and play time over every \
                playback, and the worst sessions. Pre-call network statistics (netstats timelines) are left out.

                A .jsonl file whose first record has "type": "event" or "metric" is read as an event log; \
                --from-events forces that for every input. Timelines and players' logs are detected from \
                their extension and content; --input-format forces a format for every input.

                Exit codes: 0 ok, 1 the report could not be written, 2 bad input.

                Examples:
                  avtreplay report fixtures/avplayer-session.json -o report.html
                  avtreplay report recordings/ -o overview.html --worst 20
                  avtreplay run session.json | avtreplay report - -o report.html
                  avtreplay report logcat.txt --input-format exoplayer-log -o r.html
                """)

        @Argument(
            help: ArgumentHelp("Timelines, event logs, directories, or - for standard input.", valueName: "input"))
        var inputs: [String]

        @Flag(help: "Read every input as an event log (JSON Lines records), not as a timeline.")
        var fromEvents = false

        @OptionGroup var input: InputFormatOptions<TimelinesFormat>

        @OptionGroup var definitions: DefinitionsOptions

        @Option(help: ArgumentHelp("How many sessions the overview lists as worst.", valueName: "n"))
        var worst = 10

        @OptionGroup var tracker: TrackerOptions

        @OptionGroup var output: OutputOptions<HTMLOutput>

        @OptionGroup var limits: LimitOptions

        @OptionGroup var inputLimits: InputLimitOptions

        func validate() throws {
            if inputs.isEmpty { throw ValidationError("Missing expected argument '<input> ...'") }
            if worst < 0 { throw ValidationError("--worst must be 0 or more") }
            if fromEvents, input.inputFormat != nil {
                throw ValidationError("--input-format reads timelines and --from-events event logs: give one of them.")
            }
        }

        func run() throws {
            try output.refuseOverwriting(inputs)
            let records: [SessionRecords]
            do {
                records = try ReportInput.load(
                    inputs, fromEvents: fromEvents, format: input.inputFormat, csvTrackers: tracker.trackers,
                    options: limits.runOptions(input: inputLimits), skipped: Diagnostics.warning)
            } catch let error as TimelineError {
                throw CommandFailure.badInput(error.fixing(eventLog: EventLogFix.report).description)
            }
            guard !records.isEmpty else {
                throw CommandFailure.badInput("no sessions found in \(inputs.joined(separator: ", "))")
            }
            var writer = ReportWriter()
            writer.definitions = definitions.definitions
            writer.worstCount = worst
            writer.overview = ReportInput.wantsOverview(sessions: records.count, inputs: inputs)
            let html = writer.render(records.map(ReportSession.init))
            try limits.checkOutput(html, of: inputs)
            try output.write(html)
        }
    }
}
