import AVTOutput
import AVTTimeline
import AVTTrackers

extension Replayer {
    /// What `avtreplay run PATH` writes, byte for byte: the timeline (any format `run` reads,
    /// detected as `run` detects it) replayed into JSON Lines records, written to `sink` as the
    /// replay goes. Bad input throws `TimelineError`; a player log's warnings go to `warn`.
    @discardableResult
    public static func run(
        _ path: String, options: RunOptions = RunOptions(), format: TimelineFormat? = nil,
        csvTrackers: [TrackerSpec] = [], into sink: ByteSink, warn: @escaping @Sendable (String) -> Void = { _ in }
    ) throws -> ReplaySummary {
        var configuration = SessionRunner.Configuration()
        (configuration.options, configuration.inputFormat) = (options, format)
        configuration.options.warnings = WarningHandler(warn)
        configuration.csvTrackers = csvTrackers
        var summary = ReplaySummary()
        let runner = SessionRunner(configuration) { JSONLinesBackend(sink: $0, encoder: $1, filter: $2) }
        try runner.run([path], to: sink) { summary = $0.summary }
        return summary
    }
}
