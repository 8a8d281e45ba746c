import AVTCore
import AVTDelivery
import AVTFormats
import AVTOutput
import AVTReplay
import AVTTimeline
import AVTTrackers
import ArgumentParser
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
                timelines in it (.json, .jsonl, .ndjson, .csv; not *.expected.jsonl), recursively, sorted \
                by path. With several inputs or a directory, every record carries "session" (the path).

                Ids are derived from --seed, so the same input and flags give byte-identical output.

                --speed X replays in wall-clock time (1 = real time); without it nothing waits. Ctrl-C or \
                SIGTERM stops at the next step, flushes every destination and exits 130/143, or 3 if \
                something went to the dead-letter file.

                Examples:
                  avtreplay run fixtures/happy-path.json
                  avtreplay run fixtures/preroll-ads.json --metrics-only
                  avtreplay run session.json --start-time 2026-03-01T12:00:00Z --until 120000 -o out.jsonl
                  cat session.jsonl | avtreplay run - --hub core --ping-interval 10000
                  avtreplay run corpus/ --jobs 2 --shard 1/4 -o shard1.jsonl
                  avtreplay run session.json --to influxdb://127.0.0.1:8086/telemetry --start-time now --speed 1
                  INFLUX_TOKEN=… avtreplay run session.json --to 'influxdb2://127.0.0.1:8086?org=acme&bucket=replays'
                  avtreplay run fixtures/mediastream-session.json --format mediastream --mediastream-content-id 529a628d
                """)

        @Argument(help: ArgumentHelp(
            "Timelines (JSON, JSONL or CSV), directories of timelines, or - for standard input.", valueName: "timeline"))
        var timelines: [String]

        @Option(help: ArgumentHelp(
            "The timelines' format: json, jsonl, csv or avmetrics (default: from the extension, else from the content).",
            valueName: "format"))
        var inputFormat: TimelineFormat?

        @Option(name: .customLong("tracker"), help: TrackerFlag.help, transform: TrackerFlag.parse)
        var trackers: [TrackerSpec] = []

        @Option(help: ArgumentHelp(
            "Output format: jsonl (one JSON record per line), csv (one row per record, attribute columns), "
                + "table (aligned, for reading; colour on a terminal), influx (InfluxDB line protocol), "
                + "graphite (Graphite plaintext), the last two exactly as those backends send them, "
                + "or mediastream (Mediastream collector events, one per line).",
            valueName: "format"))
        var format: OutputFormat = .jsonl

        @Option(name: .customLong("to"), help: ArgumentHelp(
            "Where records go (repeatable): stdout (default), file:PATH, influxdb://HOST:PORT/DB[?rp=…] "
                + "(influxdb+https:// too; INFLUX_USERNAME/INFLUX_PASSWORD for authentication), "
                + "influxdb2://HOST:PORT?org=ORG&bucket=BUCKET (influxdb2+https:// too; INFLUX_TOKEN), "
                + "graphite://HOST[:PORT], graphite+udp://HOST[:PORT], newrelic://ACCOUNT_ID[?region=eu] "
                + "(NEW_RELIC_LICENSE_KEY), or mediastream+http(s)://HOST/PATH (Mediastream collector events).",
            valueName: "dest"))
        var destinations: [String] = []

        @Option(help: ArgumentHelp(
            "Host of both New Relic APIs instead of New Relic's own (a proxy, or a test server), e.g. http://127.0.0.1:9000.",
            valueName: "url"))
        var newrelicEndpoint: String?

        @Option(help: ArgumentHelp(
            "content_id of the Mediastream events (default: the events' contentId attribute).", valueName: "id"))
        var mediastreamContentId: String?

        @Option(help: ArgumentHelp(
            "unique_id (the user) of the Mediastream events (default: the events' uniqueId attribute, else the instrument id).",
            valueName: "id"))
        var mediastreamUniqueId: String?

        @Option(help: ArgumentHelp(
            "Where records a server did not take are kept, with the reason (default avtreplay-undelivered.jsonl).",
            valueName: "file"))
        var deadLetter: String = "avtreplay-undelivered.jsonl"

        @Option(help: ArgumentHelp("Attempts per batch on connection errors, timeouts, 429 and 5xx.", valueName: "n"))
        var deliveryAttempts: Int = 5

        @Option(help: ArgumentHelp("First retry delay in ms (doubled per attempt, with jitter).", valueName: "ms"))
        var deliveryRetryDelay: Int = 250

        @Option(help: ArgumentHelp("Records per request to a server.", valueName: "n"))
        var deliveryBatch: Int = 5000

        @Option(help: ArgumentHelp(
            "Replay in wall-clock time: 1 = real time, 10 = ten times faster (default: as fast as possible, no waiting).",
            valueName: "x"))
        var speed: Double?

        @Option(help: ArgumentHelp("With --speed, the longest a record waits in a batch before it is sent.", valueName: "ms"))
        var deliveryMaxAge: Int = 1000

        @Option(name: .customLong("influx-gzip"), help: ArgumentHelp(
            "gzip InfluxDB request bodies: auto (default: not to a loopback host, where it only costs CPU), always or never.",
            valueName: "when"))
        var influxGzipOption: DeliveryPolicy.GzipPolicy?

        @Option(
            name: .customLong("influx-precision"),
            help: ArgumentHelp("Timestamp precision of --format influx: ns, us, ms (default) or s.", valueName: "unit"))
        var influxPrecisionOption: InfluxLineEncoder.Precision?

        @Flag(help: "--format influx exactly as upstream OpenAVT writes it: no tags, no integer suffix, no escaping, ns.")
        var influxCompat = false

        @Option(
            name: .customLong("influx-measurements"),
            help: ArgumentHelp("InfluxDB measurements for events and metrics (default: OAVT_EVENTS,OAVT_METRICS).", valueName: "events,metrics"))
        var influxMeasurementsOption: String?

        @Option(
            name: .customLong("influx-tags"),
            help: ArgumentHelp("Event attributes written as InfluxDB tags, comma-separated (default: action,tracker).", valueName: "attr,..."))
        var influxTagsOption: String?

        @Option(name: .customLong("graphite-prefix"), help: ArgumentHelp("Graphite path prefix (default: OAVT).", valueName: "prefix"))
        var graphitePrefixOption: String?

        @Flag(help: "Also count events in Graphite, as PREFIX.events.<Action> 1.")
        var graphiteEvents = false

        @Option(name: .customLong("graphite-step"), help: ArgumentHelp(
            "Seconds per Graphite value (the carbon retention step): counters are summed per step, gauges per --graphite-aggregate (default: 1).",
            valueName: "s"))
        var graphiteStepOption: Int?

        @Option(
            name: .customLong("graphite-aggregate"),
            help: ArgumentHelp("How gauges of one Graphite step combine: last (default), sum, avg, min or max.", valueName: "how"))
        var graphiteAggregateOption: GraphiteEncoder.GaugeAggregation?

        @Option(
            name: .customLong("graphite-retention"),
            help: ArgumentHelp(
                "Seconds of history the carbon schema keeps; points outside it are reported (carbon drops them silently; default: 86400).",
                valueName: "s"))
        var graphiteRetentionOption: Int?

        // Destination options are optional so a run can tell "given" from "default" (and warn
        // about one that shapes no output); these are their values.
        var influxGzip: DeliveryPolicy.GzipPolicy { influxGzipOption ?? .auto }
        var influxPrecision: InfluxLineEncoder.Precision { influxPrecisionOption ?? .ms }
        var influxMeasurements: String { influxMeasurementsOption ?? "OAVT_EVENTS,OAVT_METRICS" }
        var influxTags: String { influxTagsOption ?? "action,tracker" }
        var graphitePrefix: String { graphitePrefixOption ?? "OAVT" }
        var graphiteStep: Int { graphiteStepOption ?? 1 }
        var graphiteAggregate: GraphiteEncoder.GaugeAggregation { graphiteAggregateOption ?? .last }
        var graphiteRetention: Int { graphiteRetentionOption ?? 86_400 }

        @Option(help: ArgumentHelp("Sessions replayed in parallel; output stays in input order.", valueName: "n"))
        var jobs: Int = 1

        @Option(help: ArgumentHelp(
            "Replay only sessions K, K+N, K+2N, … (1-based) of the sorted inputs, to split a corpus across machines.",
            valueName: "K/N"))
        var shard: String?

        @Option(name: [.short, .customLong("output")], help: ArgumentHelp(
            "Write the records to this file (atomically) instead of standard output; - is standard output.",
            valueName: "file"))
        var output: String = "-"

        @Option(help: ArgumentHelp("Seed for the deterministic instrumentId, streamId and playbackId UUIDs.", valueName: "n"))
        var seed: UInt64 = 0

        @Flag(help: "Use random UUIDs like upstream OpenAVT (output is then not repeatable).")
        var randomIds = false

        @Option(help: ArgumentHelp("Override the document's hub: core (HubCore) or ads (HubCoreAds).", valueName: "hub"))
        var hub: HubKind?

        @Flag(help: "Run without MetricalcCore: no metric records.")
        var noMetrics = false

        @Option(help: ArgumentHelp("Override the ping interval in milliseconds; 0 disables pings.", valueName: "ms"))
        var pingInterval: Int?

        @Option(help: ArgumentHelp("Override the virtual time (ms) at which the replay ends; later steps are not replayed.", valueName: "ms"))
        var until: Int?

        @Option(help: ArgumentHelp(
            "Override the wall-clock time of t=0: ISO-8601 (2026-03-01T12:00:00Z), epoch milliseconds, or now.",
            valueName: "time"))
        var startTime: String?

        @Flag(help: "Write only event records.")
        var eventsOnly = false

        @Flag(help: "Write only metric records.")
        var metricsOnly = false

        func validate() throws {
            if timelines.isEmpty { throw ValidationError("Missing expected argument '<timeline> ...'") }
            try TrackerFlag.validate(trackers)
            if jobs < 1 { throw ValidationError("--jobs must be at least 1.") }
            if graphiteStep < 1 { throw ValidationError("--graphite-step must be at least 1 second.") }
            if deliveryAttempts < 1 { throw ValidationError("--delivery-attempts must be at least 1.") }
            if deliveryBatch < 1 { throw ValidationError("--delivery-batch must be at least 1.") }
            if deliveryRetryDelay < 0 { throw ValidationError("--delivery-retry-delay must be ≥ 0 ms.") }
            if let speed, !(speed > 0 && speed.isFinite) { throw ValidationError("--speed must be a number greater than 0, such as 1 or 10.") }
            if deliveryMaxAge < 1 { throw ValidationError("--delivery-max-age must be at least 1 ms.") }
            let sinkDestinations = destinations.filter { $0 == "stdout" || $0.hasPrefix("file:") }
            if sinkDestinations.count > 1 || (!sinkDestinations.isEmpty && output != "-") {
                throw ValidationError("Give one of stdout, file:PATH or -o: records go to one file or stream.")
            }
            if influxMeasurements.split(separator: ",").count != 2 {
                throw ValidationError("--influx-measurements expects two names: events,metrics.")
            }
            if let shard, Shard(shard) == nil {
                throw ValidationError("--shard expects K/N with 1 ≤ K ≤ N, such as 1/4; got '\(shard)'.")
            }
            if eventsOnly && metricsOnly {
                throw ValidationError("--events-only and --metrics-only exclude each other.")
            }
            if let pingInterval, pingInterval < 0 { throw ValidationError("--ping-interval must be ≥ 0 ms.") }
            if let until, until < 0 { throw ValidationError("--until must be ≥ 0 ms.") }
            if randomIds && seed != 0 { throw ValidationError("--seed has no effect with --random-ids.") }
            _ = try parsedStartTime()
        }

        func run() throws {
            var configuration = SessionRunner.Configuration()
            configuration.options = try runOptions()
            configuration.jobs = jobs
            configuration.inputFormat = inputFormat
            configuration.csvTrackers = trackers
            let stop = StopRequest()
            configuration.stop = stop
            Interruption.install(stop)
            var sessions: [String]
            do {
                sessions = try SessionDiscovery.expand(timelines)
            } catch {
                throw CLIFailure.badInput(error.description)
            }
            configuration.labelSessions = timelines.count > 1 || sessions != timelines
            if let shard = shard.flatMap(Shard.init) { sessions = shard.select(sessions) }

            // Destinations: one stream or file for the chosen --format, plus any servers.
            let sinkDestination = destinations.first { $0 == "stdout" || $0.hasPrefix("file:") }
            let writesStream = destinations.isEmpty || sinkDestination != nil
            let path = sinkDestination.map { $0 == "stdout" ? "-" : String($0.dropFirst("file:".count)) } ?? output
            let ledger = DeliveryLedger(deadLetterPath: deadLetter)
            var policy = DeliveryPolicy()
            policy.attempts = deliveryAttempts
            policy.baseDelay = deliveryRetryDelay
            policy.batchLines = deliveryBatch
            policy.gzip = influxGzip
            policy.stop = stop
            let influx = influxEncoder
            var deliveries: [InfluxDelivery] = []
            var graphiteDeliveries: [GraphiteDelivery] = []
            var newRelicDeliveries: [NewRelicDelivery] = []
            var mediastreamDeliveries: [MediastreamDelivery] = []
            let target: ByteSink
            do {
                for destination in destinations where destination != "stdout" && !destination.hasPrefix("file:") {
                    if destination.hasPrefix("influxdb") {
                        let server = try InfluxDestination(
                            destination, precision: influx.precision, environment: ProcessInfo.processInfo.environment)
                        deliveries.append(InfluxDelivery(destination: server, policy: policy, ledger: ledger))
                    } else if destination.hasPrefix("newrelic") {
                        let server = try NewRelicDestination(
                            destination, endpoint: newrelicEndpoint, environment: ProcessInfo.processInfo.environment)
                        newRelicDeliveries.append(NewRelicDelivery(destination: server, policy: policy, ledger: ledger))
                    } else if destination.hasPrefix("mediastream+") {
                        mediastreamDeliveries.append(
                            MediastreamDelivery(destination: try MediastreamDestination(destination), policy: policy, ledger: ledger))
                    } else if destination.hasPrefix("graphite") {
                        graphiteDeliveries.append(
                            GraphiteDelivery(destination: try GraphiteDestination(destination), policy: policy, ledger: ledger, retention: graphiteRetention))
                    } else {
                        throw OutputError(
                            path: destination,
                            message: "unknown destination: expected stdout, file:PATH, influxdb://HOST:PORT/DB, influxdb2://HOST:PORT?org=O&bucket=B, graphite://HOST:PORT, newrelic://ACCOUNT_ID or mediastream+http://HOST/PATH")
                    }
                }
                if !writesStream {
                    target = MemorySink()
                } else if path == "-" {
                    target = FileDescriptorSink()
                } else {
                    target = try AtomicFileSink(path: path)
                }
            } catch let error as OutputError {
                throw CLIFailure.badInput(error.description)
            }
            warnAboutUnusedOptions(
                stream: writesStream ? format : nil, influx: !deliveries.isEmpty, graphite: !graphiteDeliveries.isEmpty,
                newRelic: !newRelicDeliveries.isEmpty, mediastream: !mediastreamDeliveries.isEmpty)
            // Each session writes its own CSV table; the merging sink joins them under one header.
            let sink: ByteSink = format == .csv ? CSVRecordMergingSink(target: target) : target
            let color = path == "-" && Diagnostics.colorAllowed(fd: 1)
            let format = self.format
            var graphite = GraphiteEncoder()
            graphite.prefix = graphitePrefix
            graphite.events = graphiteEvents
            graphite.step = graphiteStep
            graphite.gauges = graphiteAggregate
            let (speed, maxAge) = (self.speed, Double(deliveryMaxAge) / 1000)
            let mediastream = MediastreamOptions(contentId: mediastreamContentId, uniqueId: mediastreamUniqueId)
            let makeBackend: SessionRunner.BackendFactory = {
                [graphite, deliveries, graphiteDeliveries, newRelicDeliveries, mediastreamDeliveries] sink, encoder, filter -> RecordBackend in
                var mediastream = mediastream
                mediastream.startTime = encoder.startTime
                mediastream.input = encoder.session
                let servers: [RecordBackend] =
                    deliveries.map { InfluxDeliveryBackend(delivery: $0, encoder: influx, records: encoder, filter: filter) }
                    + graphiteDeliveries.map {
                        GraphiteDeliveryBackend(delivery: $0, encoder: graphite, startTime: encoder.startTime, filter: filter)
                    }
                    + newRelicDeliveries.map { NewRelicDeliveryBackend(delivery: $0, records: encoder, filter: filter) }
                    + mediastreamDeliveries.map { MediastreamDeliveryBackend(delivery: $0, options: mediastream) }
                guard writesStream else { return FanOutBackend(servers) }
                let stream: RecordBackend
                switch format {
                case .jsonl: stream = JSONLinesBackend(sink: sink, encoder: encoder, filter: filter)
                case .csv: stream = CSVRecordBackend(sink: sink, encoder: encoder, filter: filter)
                case .table: stream = TableRecordBackend(sink: sink, encoder: encoder, filter: filter, color: color)
                case .influx: stream = InfluxLineBackend(sink: sink, encoder: influx, records: encoder, filter: filter)
                case .graphite:
                    stream = GraphiteLineBackend(sink: sink, encoder: graphite, startTime: encoder.startTime, filter: filter)
                case .mediastream: stream = MediastreamLineBackend(sink: sink, options: mediastream)
                }
                return servers.isEmpty ? stream : FanOutBackend([stream] + servers)
            }
            let runner = SessionRunner(configuration) { sink, encoder, filter -> RecordBackend in
                let backend = makeBackend(sink, encoder, filter)
                // Without --speed there is no pacer: nothing waits.
                guard let speed else { return backend }
                return PacedBackend(backend, speed: speed, maximumAge: maxAge, stop: stop)
            }
            let progress = ProgressLine(total: sessions.count, steps: { runner.stepsDone.load(ordering: .relaxed) })
            defer { progress.finish() }
            do {
                try runner.run(sessions, to: sink) { report in
                    progress.sessionDone()
                    for warning in report.summary.warnings {
                        Diagnostics.warning("\(InputFile.displayName(report.path)): \(warning)")
                    }
                }
                try sink.close()
                // Influx, Graphite and New Relic count points; Mediastream sends events.
                try reportDelivery(
                    ledger,
                    names: (deliveries.map(\.destination.description) + graphiteDeliveries.map(\.destination.description)
                        + newRelicDeliveries.map(\.destination.description)).map { ($0, "points") }
                        + mediastreamDeliveries.map { ($0.destination.description, "events") },
                    interruptedBy: stop.signal)
                for delivery in graphiteDeliveries where delivery.outsideRetention > 0 {
                    Diagnostics.warning(
                        "\(delivery.destination): \(delivery.outsideRetention) points lie outside the \(graphiteRetention) s retention; "
                            + "carbon drops them without a word (replay with --start-time now, or set --graphite-retention)")
                }
            } catch let failure as CLIFailure {
                throw failure
            } catch let error as OutputError where error.isBrokenPipe {
                return
            } catch let error as OutputError {
                (target as? AtomicFileSink)?.discard()
                throw CLIFailure(message: error.description, exitCode: .failure)
            } catch let error as TimelineError {
                (target as? AtomicFileSink)?.discard()
                throw CLIFailure.badInput(error.description)
            } catch {
                (target as? AtomicFileSink)?.discard()
                throw CLIFailure.badInput("\(error)")
            }
        }

        /// One line per server on stderr, counting in the server's `unit`; exit 3 when anything went
        /// to the dead-letter file, else 128 + the signal (130 for Ctrl-C) when a signal stopped the replay.
        private func reportDelivery(_ ledger: DeliveryLedger, names: [(name: String, unit: String)], interruptedBy signal: Int32?) throws {
            let interruption = signal.map { "interrupted by \($0 == SIGINT ? "SIGINT (Ctrl-C)" : "SIGTERM") before the end of the replay" }
            if let interruption, names.isEmpty {
                throw CLIFailure(message: interruption, exitCode: ExitCode(Interruption.exitCode(for: signal!)))
            }
            guard !names.isEmpty else { return }
            try ledger.close()
            for (name, unit) in names {
                Diagnostics.printRaw(
                    "avtreplay: \(name): \(ledger.delivered[name] ?? 0) \(unit) delivered, \(ledger.undelivered[name] ?? 0) undelivered")
            }
            let undelivered = ledger.undeliveredCount
            if let interruption, let signal, undelivered == 0 {
                throw CLIFailure(
                    message: interruption + "; everything replayed until then was delivered",
                    exitCode: ExitCode(Interruption.exitCode(for: signal)))
            }
            guard undelivered > 0 else { return }
            throw CLIFailure(
                message: (interruption.map { $0 + ". " } ?? "") + "\(undelivered) records not delivered; kept in \(ledger.deadLetterPath) (re-send with "
                    + "`avtreplay send \(ledger.deadLetterPath) --to DEST`). Reasons: " + ledger.reasons.joined(separator: "; "),
                exitCode: .notDelivered)
        }

        /// Options that only shape one kind of output would otherwise do nothing, silently, when
        /// that output is not written: each such option given is named in a warning (not an
        /// error: the replay itself is what was asked for).
        private func warnAboutUnusedOptions(stream: OutputFormat?, influx: Bool, graphite: Bool, newRelic: Bool, mediastream: Bool) {
            func check(_ options: [(name: String, given: Bool)], usedBy used: Bool, _ output: String) {
                let given = options.filter(\.given).map(\.name)
                guard !used, !given.isEmpty else { return }
                let names = given.count == 1 ? given[0] : given.dropLast().joined(separator: ", ") + " and " + given.last!
                Diagnostics.warning("\(names) ignored: nothing is written \(output)")
            }
            check(
                [("--mediastream-content-id", mediastreamContentId != nil), ("--mediastream-unique-id", mediastreamUniqueId != nil)],
                usedBy: mediastream || stream == .mediastream,
                "as Mediastream events (--format mediastream to stdout or a file, or --to mediastream+http(s)://HOST/PATH)")
            check(
                [
                    ("--influx-precision", influxPrecisionOption != nil), ("--influx-compat", influxCompat),
                    ("--influx-measurements", influxMeasurementsOption != nil), ("--influx-tags", influxTagsOption != nil),
                ],
                usedBy: influx || stream == .influx, "as InfluxDB line protocol (--format influx, or --to influxdb://…)")
            check([("--influx-gzip", influxGzipOption != nil)], usedBy: influx, "to an InfluxDB server (--to influxdb://…)")
            check(
                [
                    ("--graphite-prefix", graphitePrefixOption != nil), ("--graphite-events", graphiteEvents),
                    ("--graphite-step", graphiteStepOption != nil), ("--graphite-aggregate", graphiteAggregateOption != nil),
                ],
                usedBy: graphite || stream == .graphite, "for Graphite (--format graphite, or --to graphite://…)")
            check([("--graphite-retention", graphiteRetentionOption != nil)], usedBy: graphite, "to a Graphite server (--to graphite://…)")
            check([("--newrelic-endpoint", newrelicEndpoint != nil)], usedBy: newRelic, "to New Relic (--to newrelic://…)")
        }

        private var influxEncoder: InfluxLineEncoder {
            var encoder = InfluxLineEncoder()
            let names = influxMeasurements.split(separator: ",").map(String.init)
            if names.count == 2 { (encoder.eventsMeasurement, encoder.metricsMeasurement) = (names[0], names[1]) }
            encoder.tags = influxTags.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            encoder.precision = influxPrecision
            encoder.compat = influxCompat
            return encoder
        }

        private func runOptions() throws -> RunOptions {
            var options = RunOptions()
            options.seed = seed
            options.randomIds = randomIds
            options.hub = hub
            options.metrics = noMetrics ? false : nil
            options.pingInterval = pingInterval
            options.until = until
            options.startTime = try parsedStartTime()
            options.filter = RecordFilter(events: !metricsOnly, metrics: !eventsOnly)
            return options
        }

        private func parsedStartTime() throws -> Int? {
            guard let startTime else { return nil }
            if startTime == "now" {
                var now = timespec()
                clock_gettime(CLOCK_REALTIME, &now)
                return now.tv_sec * 1000 + now.tv_nsec / 1_000_000
            }
            if let ms = Int(startTime) { return ms }
            if let ms = ISO8601.parse(startTime) { return ms }
            throw ValidationError(
                "--start-time expects ISO-8601 (2026-03-01T12:00:00Z), epoch milliseconds or now; got '\(startTime)'.")
        }
    }
}

extension HubKind: ExpressibleByArgument {}
extension TimelineFormat: ExpressibleByArgument {}

/// `run --format`.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case jsonl, csv, table, influx, graphite, mediastream
}

extension InfluxLineEncoder.Precision: ExpressibleByArgument {}
extension DeliveryPolicy.GzipPolicy: ExpressibleByArgument {}
extension GraphiteEncoder.GaugeAggregation: ExpressibleByArgument {}
