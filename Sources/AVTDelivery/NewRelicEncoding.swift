import AVTCore
import AVTJSON
import AVTOutput
import Foundation

/// JSON objects of the two APIs, one per record.
package enum NewRelicEncoding {
    /// The Event API takes flat objects of strings and numbers; booleans become strings and
    /// values are cut at 4,096 characters (its limits).
    static func event(_ event: Event, records: RecordEncoder) -> String {
        var w = JSONWriter(capacity: 1024)
        w.raw("{\"eventType\":\"OAVT\",\"actionName\":")
        w.string(event.action.name)
        w.raw(",\"timestamp\":")
        w.int(records.startTime + event.timestamp)
        if let id = event.trackerId, records.trackerNames.indices.contains(id) {
            w.raw(",\"tracker\":")
            w.string(records.trackerNames[id])
        }
        if let session = records.session {
            w.raw(",\"session\":")
            w.string(session)
        }
        for (key, value) in event.attributes.sorted(by: { $0.key.name < $1.key.name })
        where !["eventType", "actionName", "timestamp", "tracker", "session", "accountId", "appId"].contains(key.name) {
            w.raw(",")
            w.string(String(key.name.prefix(255)))
            w.raw(":")
            switch value {
            case .int(let v): w.int(v)
            case .double(let v): w.double(v)
            case .bool(let v): w.string(v ? "true" : "false")
            case .string(let v): w.string(String(v.prefix(4096)))
            }
        }
        w.raw("}")
        return String(decoding: w.bytes, as: UTF8.self)
    }

    /// Counters are `count` metrics over 1 ms (the API requires an interval); gauges `gauge`.
    static func metric(_ metric: Metric, records: RecordEncoder) -> String? {
        var w = JSONWriter(capacity: 160)
        w.raw("{\"name\":")
        w.string("OAVT." + metric.name)
        w.raw(",\"type\":")
        w.string(metric.kind == .counter ? "count" : "gauge")
        w.raw(",\"value\":")
        switch metric.value {
        case .int(let v): w.int(v)
        case .double(let v):
            // The API drops NaN and infinities; they cannot come from a replay anyway.
            guard v.isFinite else { return nil }
            w.double(v)
        }
        w.raw(",\"timestamp\":")
        w.int(records.startTime + metric.timestamp)
        if metric.kind == .counter { w.raw(",\"interval.ms\":1") }
        if let session = records.session {
            w.raw(",\"attributes\":{\"session\":")
            w.string(session)
            w.raw("}")
        }
        w.raw("}")
        return String(decoding: w.bytes, as: UTF8.self)
    }
}
