import AVTCore
import AVTFormats
import AVTJSON
import AVTTimeline
import AVTTrackers

/// A JSON document: the settings one per line, then `"steps": [` with one compact step per line.
/// Streamed: the document is never held in memory.
package final class JSONTimelineWriter: TimelineWriter {
    package let settings: TimelineSettings
    private let sink: ByteSink
    private var w = JSONWriter(capacity: 1 << 16)
    private var steps = 0

    package init(settings: TimelineSettings, sink: ByteSink) {
        self.settings = settings
        self.sink = sink
        w.raw("{\n  ")
        TimelineEncoding.settingsMembers(settings, separator: ",\n  ", space: true, into: &w)
        w.raw(",\n  \"steps\": [")
    }

    package func write(_ step: Step) throws {
        w.raw(steps == 0 ? "\n    " : ",\n    ")
        try TimelineEncoding.step(step, trackers: settings.trackers, into: &w)
        steps += 1
        if w.bytes.count >= 1 << 16 { try flush() }
    }

    package func finish() throws(OutputError) {
        w.raw(steps == 0 ? "]\n}\n" : "\n  ]\n}\n")
        try flush()
    }

    private func flush() throws(OutputError) {
        guard !w.bytes.isEmpty else { return }
        try sink.write(w.bytes)
        w.removeAll()
    }
}
