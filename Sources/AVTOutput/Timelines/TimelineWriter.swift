import AVTCore
import AVTFormats
import AVTJSON
import AVTTimeline
import AVTTrackers

/// Writes a timeline in one of the three formats, a step at a time, so a conversion holds at most
/// one step in memory (CSV keeps its rows in a bounded spool until the columns are known).
///
/// What a writer produces reads back, with the same checks, to steps that replay to the same
/// records: settings are written explicitly (the CSV's as its `#avtreplay` line), values keep
/// their types (`1` vs `1.0`, `"true"` vs `true`), and a step's observations keep their order
/// (JSON and JSONL keep every order; CSV orders `set` keys by column, which changes nothing, and
/// splits a step whose observations are in another order into rows at the same t).
package protocol TimelineWriter: AnyObject {
    /// Writes one step; steps come in timeline order. Throws `OutputError`, or `TimelineError`
    /// for a hand-built step whose tracker index is not one of the settings' trackers.
    func write(_ step: Step) throws
    /// Writes whatever is left (the JSON document's end, the CSV's header and rows). Does not
    /// close the sink.
    func finish() throws(OutputError)
}

/// Reads a timeline and writes it in another format: the library side of `avtreplay convert`.
package enum TimelineConverter {
    /// The writer of `format`.
    package static func writer(_ format: TimelineFormat, settings: TimelineSettings, sink: ByteSink) -> any TimelineWriter {
        switch format {
        case .json: return JSONTimelineWriter(settings: settings, sink: sink)
        // An AVMetrics log is read only (`convert` does not offer it as an output); its events
        // become a JSONL timeline.
        case .jsonl, .avmetrics: return JSONLTimelineWriter(settings: settings, sink: sink)
        case .csv: return CSVTimelineWriter(settings: settings, sink: sink)
        }
    }

    /// Streams every step of `source` into `sink` as `format`, then closes the sink (which renames
    /// an `AtomicFileSink` into place). Returns the number of steps. Throws `TimelineError` for bad
    /// input, found while streaming (the sink is then not closed: discard it), and `OutputError`.
    @discardableResult
    package static func convert(_ source: inout some TimelineSource, to format: TimelineFormat, sink: ByteSink) throws -> Int {
        let writer = writer(format, settings: source.settings, sink: sink)
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

/// The JSON encodings shared by the writers.
package enum TimelineEncoding {
    /// `startTime` as ISO-8601 text when that reads back to the same milliseconds, else epoch ms.
    static func startTime(_ ms: Int, into w: inout JSONWriter) {
        let text = ISO8601.format(epochMilliseconds: ms)
        if let first = text.utf8.first, first != UInt8(ascii: "+"), first != UInt8(ascii: "-"), ISO8601.parse(text) == ms {
            w.string(text)
        } else {
            w.int(ms)
        }
    }

    /// The settings as `"key": value` members (every setting explicit, except an automatic hub and
    /// a default `until`), `separator` between them (`,` or `,\n  ` …).
    static func settingsMembers(_ settings: TimelineSettings, separator: StaticString, space: Bool, into w: inout JSONWriter) {
        func key(_ name: StaticString, first: Bool = false) {
            if !first { w.raw(separator) }
            w.raw(UInt8(ascii: "\""))
            w.raw(name)
            w.raw(UInt8(ascii: "\""))
            w.raw(UInt8(ascii: ":"))
            if space { w.raw(UInt8(ascii: " ")) }
        }
        key("startTime", first: true)
        startTime(settings.startTime, into: &w)
        if let hub = settings.hub {
            key("hub")
            w.string(hub.rawValue)
        }
        key("metrics")
        w.bool(settings.metrics)
        key("pingInterval")
        w.int(settings.pingInterval)
        if let until = settings.until {
            key("until")
            w.int(until)
        }
        key("trackers")
        w.raw(UInt8(ascii: "["))
        for (i, tracker) in settings.trackers.enumerated() {
            if i > 0 { w.raw(space ? ", " : ",") }
            w.raw("{\"name\":")
            w.string(tracker.name)
            w.raw(",\"kind\":")
            w.string(tracker.kind.rawValue)
            w.raw(",\"isAdsTracker\":")
            w.bool(tracker.isAdsTracker)
            w.raw(",\"emitTrackerInit\":")
            w.bool(tracker.emitTrackerInit)
            w.raw(UInt8(ascii: "}"))
        }
        w.raw(UInt8(ascii: "]"))
    }

    /// One step as a compact JSON object: t, tracker, action, set, observe, attributes. A step
    /// with nothing to do gets `"set":{}` so it stays a valid step (it still moves the clock);
    /// attributes without an action are dropped (they could never reach an event).
    static func step(_ step: Step, trackers: [TrackerSpec], into w: inout JSONWriter) throws(TimelineError) {
        guard trackers.indices.contains(step.tracker) else { throw badTracker(step, count: trackers.count) }
        w.raw("{\"t\":")
        w.int(step.t)
        w.raw(",\"tracker\":")
        w.string(trackers[step.tracker].name)
        if let action = step.action {
            w.raw(",\"action\":")
            w.string(action.name)
        }
        if !step.set.isEmpty || (step.action == nil && step.observe.isEmpty) {
            w.raw(",\"set\":{")
            for (i, entry) in step.set.enumerated() {
                if i > 0 { w.raw(UInt8(ascii: ",")) }
                w.string(entry.attribute.name)
                w.raw(UInt8(ascii: ":"))
                if let value = entry.value { attributeValue(value, into: &w) } else { w.null() }
            }
            w.raw(UInt8(ascii: "}"))
        }
        if !step.observe.isEmpty {
            w.raw(",\"observe\":{")
            for (i, observation) in step.observe.enumerated() {
                if i > 0 { w.raw(UInt8(ascii: ",")) }
                w.string(observation.key)
                w.raw(UInt8(ascii: ":"))
                w.value(observation.value)
            }
            w.raw(UInt8(ascii: "}"))
        }
        if step.action != nil, !step.attributes.isEmpty {
            w.raw(",\"attributes\":{")
            for (i, entry) in step.attributes.enumerated() {
                if i > 0 { w.raw(UInt8(ascii: ",")) }
                w.string(entry.attribute.name)
                w.raw(UInt8(ascii: ":"))
                attributeValue(entry.value, into: &w)
            }
            w.raw(UInt8(ascii: "}"))
        }
        w.raw(UInt8(ascii: "}"))
    }

    static func attributeValue(_ value: AttributeValue, into w: inout JSONWriter) {
        switch value {
        case .int(let v): w.int(v)
        case .double(let v): w.double(v)
        case .string(let v): w.string(v)
        case .bool(let v): w.bool(v)
        }
    }

    static func badTracker(_ step: Step, count: Int) -> TimelineError {
        TimelineError(
            file: "<steps>", path: "steps[\(step.origin.index)].tracker",
            message: "tracker index \(step.tracker) is not one of the \(count) trackers of the settings")
    }
}

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
