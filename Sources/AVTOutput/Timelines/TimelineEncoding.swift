import AVTCore
import AVTFormats
import AVTJSON
import AVTTimeline
import AVTTrackers

/// The JSON encodings shared by the writers.
package enum TimelineEncoding {
    /// `startTime` as ISO-8601 text when that reads back to the same milliseconds, else epoch ms.
    static func startTime(_ ms: Int, into w: inout JSONWriter) {
        let text = ISO8601.format(epochMilliseconds: ms)
        if let first = text.utf8.first, first != UInt8(ascii: "+"), first != UInt8(ascii: "-"),
            ISO8601.parse(text) == ms
        {
            w.string(text)
        } else {
            w.int(ms)
        }
    }

    /// The settings as `"key": value` members (every setting explicit, except an automatic hub and
    /// a default `until`), `separator` between them (`,` or `,\n  ` …).
    static func settingsMembers(
        _ settings: TimelineSettings, separator: StaticString, space: Bool, into w: inout JSONWriter
    ) {
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
