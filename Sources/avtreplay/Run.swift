import AVTReplay
import ArgumentParser

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension AVTReplayCommand {
    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replay a timeline and print what the backend receives, as JSON Lines.",
            discussion: """
                One record per backend delivery, in delivery order; an event's metrics come before the \
                event. Before each step at time t, every ping due at or before t fires first (in due-time \
                order, ties by tracker id); after the last step, pings due at or before `until` fire.

                Ids are derived from --seed, so the same input and flags give byte-identical output.

                Examples:
                  avtreplay run fixtures/happy-path.json
                  avtreplay run fixtures/preroll-ads.json --metrics-only
                  avtreplay run session.json --start-time 2026-03-01T12:00:00Z --until 120000 -o out.jsonl
                  cat session.json | avtreplay run - --hub core --ping-interval 10000
                """)

        @Argument(help: ArgumentHelp("The timeline (JSON document), or - for standard input.", valueName: "timeline"))
        var timeline: String

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
            if eventsOnly && metricsOnly {
                throw ValidationError("--events-only and --metrics-only exclude each other.")
            }
            if let pingInterval, pingInterval < 0 { throw ValidationError("--ping-interval must be ≥ 0 ms.") }
            if let until, until < 0 { throw ValidationError("--until must be ≥ 0 ms.") }
            if randomIds && seed != 0 { throw ValidationError("--seed has no effect with --random-ids.") }
            _ = try parsedStartTime()
        }

        func run() throws {
            var options = RunOptions()
            options.seed = seed
            options.randomIds = randomIds
            options.hub = hub
            options.metrics = noMetrics ? false : nil
            options.pingInterval = pingInterval
            options.until = until
            options.startTime = try parsedStartTime()
            options.filter = RecordFilter(events: !metricsOnly, metrics: !eventsOnly)

            let name = InputFile.displayName(timeline)
            let document: Timeline
            do {
                document = try TimelineDecoder.decode(try InputFile.read(timeline), file: name)
            } catch let error as TimelineError {
                throw CLIFailure.badInput(error.description)
            }
            let sink: ByteSink
            do {
                sink = output == "-" ? FileDescriptorSink() : try AtomicFileSink(path: output)
            } catch {
                throw CLIFailure.badInput(error.description)
            }
            do {
                let warnings = try Replayer.replayToJSONLines(document, options: options, sink: sink)
                for warning in warnings { Diagnostics.warning("\(name): \(warning)") }
            } catch let error as OutputError where error.isBrokenPipe {
                return
            } catch let error as OutputError {
                throw CLIFailure(message: error.description, exitCode: .failure)
            }
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
