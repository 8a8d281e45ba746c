import AVTCore
import AVTFormats
import AVTJSON
import AVTTimeline
import AVTTrackers

/// Reads a timeline and writes it in another format: the library side of `avtreplay convert`.
package enum TimelineConverter {
    /// The writer of `format`.
    package static func writer(
        _ format: TimelineFormat, settings: TimelineSettings, sink: ByteSink, maxColumns: Int = InputLimits().maxColumns
    ) -> any TimelineWriter {
        switch format {
        case .json: return JSONTimelineWriter(settings: settings, sink: sink)
        // An AVMetrics log and the player logs are read only (`convert` does not offer them as
        // an output); their steps become a JSONL timeline.
        case .jsonl, .avmetrics, .exoplayerLog, .chromeMediaLog, .avplayerAccesslog:
            return JSONLTimelineWriter(settings: settings, sink: sink)
        case .csv: return CSVTimelineWriter(settings: settings, sink: sink, maxColumns: maxColumns)
        }
    }

    /// Streams every step of `source` into `sink` as `format`, then closes the sink (which renames
    /// an `AtomicFileSink` into place). Returns the number of steps. Throws `TimelineError` for bad
    /// input, found while streaming (the sink is then not closed: discard it), and `OutputError`.
    @discardableResult
    package static func convert(
        _ source: inout some TimelineSource, to format: TimelineFormat, sink: ByteSink,
        maxColumns: Int = InputLimits().maxColumns
    ) throws -> Int {
        let writer = writer(format, settings: source.settings, sink: sink, maxColumns: maxColumns)
        var count = 0
        while let step = try source.nextStep() {
            try writer.write(step)
            count += 1
        }
        try writer.finish()
        try sink.close()
        return count
    }
}
