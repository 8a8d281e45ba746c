import AVTDelivery
import AVTOutput
import AVTReplay
import AVTTimeline
import ArgumentParser
import Foundation

extension AVTReplayCommand {
    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replay timelines and print what the backend receives.",
            discussion: """
                One record per backend delivery, in delivery order; an event's metrics come before the \
                event. Before each step at time t, every timer due at or before t fires first (in due-time \
                order, ties by tracker id, pings first); after the last step, timers due at or before \
                `until` fire.

                Each input is its own session (own hub state, ids and clock). A directory stands for the \
                timelines in it (.json, .jsonl, .ndjson, .csv, and .log or .txt player logs; not *.expected.jsonl or output records), recursively, sorted \
                by path. With several inputs, a directory or a shard, every record carries "session": the path \
                relative to the directory it was found in, else the path as given (--session NAME names a \
                single input).

                A player's own log (ExoPlayer EventLogger, Chrome media-internals, AVPlayer access log) is \
                detected from its content and replayed as the timeline it shows (docs/player-logs.md).

                Ids are derived from --seed, so the same input and flags give byte-identical output.

                --speed X replays in wall-clock time (1 = real time); without it nothing waits. Ctrl-C or \
                SIGTERM stops at the next step, flushes every destination and exits 130/143, or 3 if \
                something went to the dead-letter file.

                Examples:
                  avtreplay run fixtures/happy-path.json
                  avtreplay run fixtures/preroll-ads.json --metrics-only
                  avtreplay run session.json --start-time 2026-03-01T12:00:00Z -o out.jsonl
                  cat session.jsonl | avtreplay run - --hub core --ping-interval 10000
                  avtreplay run corpus/ --jobs 2 --shard 1/4 -o shard1.jsonl
                  avtreplay run s.json --to influxdb://db:8086/oavt --start-time now --speed 1
                  avtreplay run s.json --to graphite://h:2003 --end-time now
                  INFLUX_TOKEN=… avtreplay run s.json --to 'influxdb2://h:8086?org=o&bucket=b'
                  avtreplay run s.json --format mediastream --mediastream-content-id 529a628d
                  avtreplay run s.json --format openmetrics -o s.om   # promtool backfill
                  avtreplay run s.json --to prometheus://127.0.0.1:9090 --end-time now
                """)

        @Argument(
            help: ArgumentHelp(
                "Timelines (JSON, JSONL or CSV), directories of timelines, or - for standard input.",
                valueName: "timeline"))
        var timelines: [String] = []

        @OptionGroup var input: InputFormatOptions<TimelinesFormat>
        @OptionGroup var tracker: TrackerOptions

        @Option(
            help: ArgumentHelp(
                "Output format: jsonl (one JSON record per line), csv (one row per record, attribute columns), "
                    + "table (aligned, for reading; colour on a terminal), influx (InfluxDB line protocol), "
                    + "graphite (Graphite plaintext), the last two exactly as those backends send them, "
                    + "mediastream (Mediastream collector events, one per line), "
                    + "or openmetrics (Prometheus samples, for promtool tsdb create-blocks-from openmetrics).",
                valueName: "format"))
        var format: OutputFormat = .jsonl

        @OptionGroup var to: DestinationOptions
        @OptionGroup var newRelic: NewRelicOptions<RunNewRelicEndpoint>
        @OptionGroup var mediastream: MediastreamIdOptions
        @OptionGroup var deadLetter: DeadLetterOptions<RunDeadLetter>
        @OptionGroup var retry: RetryOptions
        @OptionGroup var batch: BatchOptions
        @OptionGroup var pacing: PacingOptions
        @OptionGroup var influx: InfluxOptions
        @OptionGroup var graphite: GraphiteOptions
        @OptionGroup var labels: LabelOptions
        @OptionGroup var windows: WindowOptions
        @OptionGroup var schedule: ScheduleOptions
        @OptionGroup var corpus: CorpusOptions
        @OptionGroup var name: SessionNameOptions
        @OptionGroup var progressOptions: ProgressOptions
        @OptionGroup var output: OutputOptions<RecordsOutput>
        @OptionGroup var replay: ReplayOptions
        @OptionGroup var limits: LimitOptions
        @OptionGroup var inputLimits: InputLimitOptions

        func validate() throws {
            if timelines.isEmpty, corpus.filesFrom == nil {
                throw ValidationError("Missing expected argument '<timeline> ...'")
            }
            if retry.deliveryAttempts < 1 { throw ValidationError("--delivery-attempts must be at least 1.") }
            do {
                try DeliveryPlan.checkStream(destinations: to.destinations, output: output.output)
            } catch {
                throw ValidationError(error.message)
            }
        }

        func run() throws {
            let stop = StopRequest()
            Interruption.install(stop)
            var configuration = SessionRunner.Configuration()
            configuration.options = try replay.runOptions(limits: limits, input: inputLimits)
            (configuration.jobs, configuration.inputFormat, configuration.csvTrackers) = (
                schedule.jobs, input.inputFormat, tracker.trackers
            )
            configuration.stop = stop
            configuration.keepGoing = corpus.keepGoing
            var sessions: [String]
            let timelines = try corpus.inputs(self.timelines)
            do {
                sessions = try SessionDiscovery.expand(timelines, shard: corpus.selected)
            } catch {
                throw CommandFailure.badInput(error.description)
            }
            configuration.labelSessions = SessionDiscovery.labelsSessions(
                inputs: timelines, sessions: sessions, sharded: corpus.namesSessions)
            configuration.seriesLabels = labels.seriesLabels
            let inputs = timelines
            configuration.sessionName = { SessionDiscovery.name(of: $0, inputs: inputs) }
            if let given = name.session {
                guard timelines.count == 1, sessions == timelines, !corpus.namesSessions else {
                    throw CommandFailure.badInput(
                        "--session names one session (a file or -); a folder, several inputs or a shard name "
                            + "their sessions by their paths")
                }
                configuration.labelSessions = true
                configuration.sessionName = { _ in given }
            }
            for (name, _) in configuration.seriesLabels.pairs where influx.encoder.tags.contains(name) {
                throw CommandFailure.badInput(
                    "--label \(name)=…: \(name) is also an InfluxDB tag (--influx-tags); choose another name")
            }

            let plan: DeliveryPlan
            let target: ByteSink
            do {
                let policy = batch.policy(
                    attempts: retry.deliveryAttempts, gzip: influx.gzip, windows: windows, stop: stop)
                plan = try DeliveryPlan(
                    destinations: to.destinations, output: output.output, settings: destinationSettings, policy: policy,
                    deadLetter: deadLetter.deadLetter, graphiteRetention: windows.graphiteRetention)
                try FileIdentity.checkOutputs(
                    [plan.streamPath ?? "-"] + (plan.servers.isEmpty ? [] : [deadLetter.deadLetter]),
                    notAmong: timelines + sessions)
                if !plan.servers.isEmpty {
                    try DeadLetterTarget.check(deadLetter.deadLetter, outputs: [plan.streamPath ?? "-"])
                }
                target = try plan.openStream()
            } catch {
                throw CommandFailure.badInput(error.description)
            }
            let given = Set(
                influx.given + graphite.given + windows.given + newRelic.given + mediastream.given + labels.given)
            let stream = plan.streamPath == nil ? nil : format
            for warning in UnusedOptions.warnings(given: given, stream: stream, servers: plan.serverKinds) {
                Diagnostics.warning(warning)
            }
            // Each session writes its own CSV table; the merging sink joins them under one header.
            // OpenMetrics wants each family's samples together, once, and `# EOF` at the end.
            let sink: ByteSink =
                switch format {
                case .csv:
                    CSVRecordMergingSink(target: target, maxColumns: configuration.options.inputLimits.maxColumns)
                case .openmetrics: OpenMetricsMergingSink(target: target)
                default: target
                }
            var backends = RunBackends()
            (backends.format, backends.writesStream, backends.servers) = (format, plan.streamPath != nil, plan.servers)
            backends.color = plan.streamPath == "-" && Diagnostics.colorAllowed(fd: 1)
            (backends.encoders.influx, backends.encoders.graphite) = (influx.encoder, graphite.encoder)
            backends.encoders.mediastream = mediastream.options
            (backends.speed, backends.maximumAge, backends.stop) = (pacing.speed, pacing.maximumAge, stop)
            backends.maxColumns = configuration.options.inputLimits.maxColumns
            let runner = SessionRunner(configuration, makeBackend: backends.factory)
            // Each input's size, for the bytes read and the time left: only when a line shows them.
            let sizes = progressOptions.every != nil || isatty(2) != 0 ? ProgressLine.sizes(of: sessions) : []
            let sizeOf = Dictionary(zip(sessions, sizes), uniquingKeysWith: { first, _ in first })
            let progress = ProgressLine(
                total: sessions.count, steps: { runner.stepsDone.value },
                every: progressOptions.every, sizes: sizes)
            defer { progress.finish() }
            var bad = 0
            do {
                try runner.run(sessions, to: sink) { report in
                    progress.sessionDone(bytes: sizeOf[report.path] ?? nil)
                    for warning in report.summary.warnings {
                        Diagnostics.warning("\(InputFile.displayName(report.path)): \(warning)")
                    }
                } skipped: { path, error in
                    bad += 1
                    progress.sessionDone(bytes: sizeOf[path] ?? nil)
                    Diagnostics.error(error.fixing(eventLog: EventLogFix.run).description + " (left out: --keep-going)")
                }
                try PartialOutput.close(sink, target: target, interrupted: stop.signal != nil)
                for warning in backends.encoders.influx.rewrites.warnings { Diagnostics.warning(warning) }
                let delivery = try plan.finish(
                    interruptedBy: stop.signal, labelled: !configuration.seriesLabels.pairs.isEmpty)
                for line in delivery.summary { Diagnostics.print("avtreplay: " + line) }
                if let failure = delivery.failure { throw failure }
                if bad > 0 {
                    throw CommandFailure.badInput(
                        "\(bad) of \(sessions.count) inputs were bad input and left out; the others were replayed")
                }
            } catch let failure as CommandFailure {
                throw failure
            } catch {
                if let signal = stop.signal, InputCancellation.isRequested {
                    // Stopped while reading: what was complete is kept and delivered, as when
                    // the signal comes between steps.
                    try? PartialOutput.close(sink, target: target, interrupted: true)
                    let delivery = try plan.finish(
                        interruptedBy: signal, labelled: !configuration.seriesLabels.pairs.isEmpty)
                    for line in delivery.summary { Diagnostics.print("avtreplay: " + line) }
                    throw delivery.failure
                        ?? CommandFailure(message: "interrupted", status: .interrupted(signal: signal))
                }
                guard
                    let failure = CommandFailure((error as? TimelineError)?.fixing(eventLog: EventLogFix.run) ?? error)
                else { return }
                (target as? AtomicFileSink)?.discard()
                throw failure
            }
        }

        private var destinationSettings: DestinationSettings {
            var settings = DestinationSettings(
                precision: influx.influxCompat ? .ns : influx.precision, newRelicEndpoint: newRelic.newrelicEndpoint,
                environment: ProcessInfo.processInfo.environment)
            settings.prometheusWindow = windows.prometheusWindow
            return settings
        }
    }
}
