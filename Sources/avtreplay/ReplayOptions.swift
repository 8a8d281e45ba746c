import AVTCore
import AVTOutput
import AVTReplay
import AVTTimeline
import ArgumentParser

/// How `run` replays each session: ids, hub, pings, end, clock and which records it keeps.
struct ReplayOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp("Seed for the deterministic instrumentId, streamId and playbackId UUIDs.", valueName: "n"))
    var seed: UInt64 = 0

    @Flag(help: "Use random UUIDs like upstream OpenAVT (output is then not repeatable).")
    var randomIds = false

    @Option(help: ArgumentHelp("Override the document's hub: core (HubCore) or ads (HubCoreAds).", valueName: "hub"))
    var hub: HubKind?

    @Flag(help: "Run without MetricalcCore: no metric records.")
    var noMetrics = false

    @Option(help: ArgumentHelp("Override the ping interval in milliseconds; 0 disables pings.", valueName: "ms"))
    var pingInterval: Int?

    @Option(
        help: ArgumentHelp(
            "Override the virtual time (ms) at which the replay ends; later steps are not replayed.", valueName: "ms"))
    var until: Int?

    @Option(
        help: ArgumentHelp(
            "Override the wall-clock time of t=0: ISO-8601 (2026-03-01T12:00:00Z), epoch milliseconds, or now.",
            valueName: "time"))
    var startTime: String?

    @Option(
        help: ArgumentHelp(
            "Place the replay so that its last instant (the timeline's until, or its last step) lands at this time: ISO-8601, epoch milliseconds, or now (backfill: every point lies in the past).",
            valueName: "time"))
    var endTime: String?

    @Flag(help: "Write only event records.")
    var eventsOnly = false

    @Flag(help: "Write only metric records.")
    var metricsOnly = false

    func validate() throws {
        if eventsOnly && metricsOnly { throw ValidationError("--events-only and --metrics-only exclude each other.") }
        if let pingInterval, pingInterval < 0 { throw ValidationError("--ping-interval must be ≥ 0 ms.") }
        if let until, until < 0 { throw ValidationError("--until must be ≥ 0 ms.") }
        if randomIds && seed != 0 { throw ValidationError("--seed has no effect with --random-ids.") }
        var options = RunOptions()
        try place(&options)
    }

    /// The limits are the command's sibling groups (see `LimitOptions.runOptions(input:)`).
    func runOptions(limits: LimitOptions, input: InputLimitOptions) throws -> RunOptions {
        var options = RunOptions()
        options.seed = seed
        options.randomIds = randomIds
        options.hub = hub
        options.metrics = noMetrics ? false : nil
        options.pingInterval = pingInterval
        options.until = until
        limits.apply(to: &options, input: input)
        try place(&options)
        options.filter = RecordFilter(events: !metricsOnly, metrics: !eventsOnly)
        return options
    }

    /// Where the replay lies on the wall clock: `--start-time` or `--end-time`.
    private func place(_ options: inout RunOptions) throws {
        if startTime != nil, endTime != nil {
            throw ValidationError(
                "--start-time and --end-time exclude each other: give where the replay starts or where it ends.")
        }
        do {
            options.startTime = try startTime.map { text throws(UsageError) in try ReplayStartTime.parse(text) }
            options.endTime = try endTime.map { text throws(UsageError) in
                try ReplayStartTime.parse(text, flag: "--end-time")
            }
        } catch {
            throw ValidationError(error.message)
        }
    }
}
