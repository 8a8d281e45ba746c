import AVTCore
import AVTFormats
import AVTJSON
import AVTTimeline
import AVTTrackers

/// JSON Lines: the settings object on the first line, then one step per line.
package final class JSONLTimelineWriter: TimelineWriter {
    package let settings: TimelineSettings
    private let sink: ByteSink
    private var w = JSONWriter(capacity: 1 << 16)

    package init(settings: TimelineSettings, sink: ByteSink) {
        self.settings = settings
        self.sink = sink
        w.raw(UInt8(ascii: "{"))
        TimelineEncoding.settingsMembers(settings, separator: ",", space: false, into: &w)
        w.raw("}\n")
    }

    package func write(_ step: Step) throws {
        try TimelineEncoding.step(step, trackers: settings.trackers, into: &w)
        w.raw(UInt8(ascii: "\n"))
        if w.bytes.count >= 1 << 16 { try flush() }
    }

    package func finish() throws(OutputError) { try flush() }

    private func flush() throws(OutputError) {
        guard !w.bytes.isEmpty else { return }
        try sink.write(w.bytes)
        w.removeAll()
    }
}
