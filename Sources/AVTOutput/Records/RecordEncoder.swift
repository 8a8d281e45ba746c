import AVTCore
import AVTFormats
import AVTJSON
import AVTTimeline

/// The JSON Lines record of one backend delivery (docs/outputs.md): fixed key order, attribute
/// keys sorted by their UTF-8 bytes, integers as integers, so equal input gives equal bytes.
public struct RecordEncoder {
    /// Tracker names by tracker id, for the `tracker` field.
    public let trackerNames: [String]
    /// Epoch milliseconds of virtual t=0, for the `time` field.
    public let startTime: Int
    /// The `session` field (the input's path) when a run replays several inputs; nil omits it.
    public let session: String?
    /// `--label`s: on every series and point a server stores (see `SeriesLabels`).
    package var labels: [(name: String, value: String)] = []
    /// The session's name as a series label and Graphite path component: its path relative to
    /// the folder it was found in, so a corpus replayed from anywhere gives the same series. Nil
    /// for a run of one input, or with `--no-session-label`.
    package var seriesSession: String?
    /// The session's end in epoch ms when it is known before the replay (`--end-time`, or the
    /// timeline's `until`): counters repeat their last value there (see `PrometheusSampleWriter`).
    package var endTime: Int?
    private var keys = AttributeKeyCache()
    private var actionNames = ActionNameCache()
    private var times = ISO8601.DayCache()
    /// The `"t":…,"time":"…"` bytes of the last record's t (at most 62 bytes); `count` 0 before
    /// the first.
    private var lastHeader = (t: 0, count: 0, bytes: PaddedBytes(zeros: 96))
    /// Metric names (a handful of constants), by their String representation.
    private var metricNames = EncodedStringCache()
    private var stringCache = EncodedStringCache()
    private var orders = AttributeOrderCache()
    private var longOrder = LongKeyOrder()

    /// An encoder naming trackers by index from `trackerNames`, times from `startTime` (epoch ms), and labelling each
    /// record with `session` when given.
    public init(trackerNames: [String], startTime: Int, session: String? = nil) {
        self.trackerNames = trackerNames
        self.startTime = startTime
        self.session = session
        // Every name the process knows, ranked at once and shared: learnt one record at a time,
        // each new name re-sorted them all, in every session of a corpus.
        keys = AttributeKeyCache.known()
    }

    /// Appends the metric's record to a writer (general use; the backends use `JSONBuffer`).
    package mutating func encode(_ metric: Metric, into w: inout JSONWriter) {
        var scratch = JSONBuffer(capacity: 256)
        encode(metric, into: &scratch)
        scratch.withUnsafeBytes { w.bytes.append(contentsOf: $0) }
    }

    /// Appends the event's record to a writer (general use; the backends use `JSONBuffer`).
    package mutating func encode(_ event: Event, into w: inout JSONWriter) {
        var scratch = JSONBuffer(capacity: 2048)
        encode(event, into: &scratch)
        scratch.withUnsafeBytes { w.bytes.append(contentsOf: $0) }
    }

    package mutating func encode(_ metric: Metric, into w: inout JSONBuffer) {
        w.literal("{\"type\":\"metric\",")
        header(t: metric.timestamp, into: &w)
        w.literal(",\"name\":")
        metricNames.write(metric.name, into: &w)
        switch metric.kind {
        case .counter: w.literal(",\"metricType\":\"counter\"")
        case .gauge: w.literal(",\"metricType\":\"gauge\"")
        }
        w.literal(",\"value\":")
        switch metric.value {
        case .int(let v): w.int(v)
        case .double(let v): w.double(v)
        }
        w.literal("}\n")
    }

    package mutating func encode(_ event: Event, into w: inout JSONBuffer) {
        w.literal("{\"type\":\"event\",")
        header(t: event.timestamp, into: &w)
        w.literal(",\"action\":")
        let action = Int(event.action.index)
        actionNames.learn(upTo: action + 1)
        w.append(actionNames.bytes, actionNames.spans[action])
        w.literal(",\"tracker\":")
        if let id = event.trackerId, trackerNames.indices.contains(id) {
            w.string(trackerNames[id])
        } else {
            w.literal("null")
        }
        w.literal(",\"attributes\":{")
        writeAttributes(event.attributes, into: &w)
        w.literal("}}\n")
    }

    /// Attributes in name order. A key sequence seen before replays its cached order (see
    /// `AttributeOrderCache`); a new one is sorted by rank first. Everything is read through
    /// buffer pointers: this runs for every attribute of every event.
    private mutating func writeAttributes(_ attributes: AttributeMap, into w: inout JSONBuffer) {
        attributes.withUnsafeStorage { entries, strings in
            let slot = AttributeOrderCache.slot(for: entries)
            let cached = orders.withOrder(slot: slot, for: entries) { steps in
                writeValues(steps, entries, strings, into: &w)
            }
            if cached { return }
            let order = order(of: entries)
            orders.remember(slot: slot, for: entries, order: order)
            order.withUnsafeBufferPointer { writeValues($0, entries, strings, into: &w) }
        }
    }

    /// Writes `,"key":value` (the first without its comma) for each step, in order.
    private mutating func writeValues(
        _ steps: UnsafeBufferPointer<AttributeOrderCache.Step>, _ entries: UnsafeBufferPointer<AttributeMap.Entry>,
        _ strings: UnsafeBufferPointer<String>, into w: inout JSONBuffer
    ) {
        let keyBytes = keys.keyBytes
        for step in steps {
            // In bounds: the steps were made for exactly this key sequence (`order(of:)` here, or
            // replayed by `AttributeOrderCache.withOrder` only after comparing every key and the
            // count), so each position is below `entries.count`; and `AttributeMap` keeps every
            // `.string(i)` an index into `strings`. Neither buffer outlives `withUnsafeStorage`.
            let entry = entries[Int(step.position)]
            w.append(keyBytes, start: Int(step.keyStart), count: Int(step.keyCount))
            switch entry.stored {
            case .int(let v): w.int(v)
            case .double(let v): w.double(v)
            case .string(let i): stringCache.write(strings[i], slot: Int(entry.key.index), into: &w)
            case .bool(let v): w.bool(v)
            }
        }
    }

    /// The writing order of these keys, by name. Runs once per new key sequence (about one event
    /// in fifty), so a plain sort does.
    private mutating func order(of entries: UnsafeBufferPointer<AttributeMap.Entry>) -> [AttributeOrderCache.Step] {
        var highest: Int32 = -1
        for i in entries.indices where entries[i].key.index > highest { highest = entries[i].key.index }
        // New names may re-rank the keys. The cached orders would survive it (known keys keep
        // their bytes and their order among themselves), but this is rare: drop them rather
        // than lean on that.
        if keys.learn(upTo: Int(highest) + 1) { orders.removeAll() }
        let order = keys.order
        let spans = keys.keySpans
        // An event too long for the cache (a timeline that sets many attributes) is ordered from
        // the last long one: see `LongKeyOrder`.
        let positions =
            entries.count > AttributeOrderCache.slotCapacity
            ? longOrder.order(of: entries) { order.precedes(Int($0), Int($1)) }.map(Int.init)
            : entries.indices.sorted { order.precedes(Int(entries[$0].key.index), Int(entries[$1].key.index)) }
        return positions.enumerated().map { n, position in
            // Keys are stored as `,"name":`; the first one is written without its comma.
            let skip = n == 0 ? 1 : 0
            let span = spans[Int(entries[position].key.index)]
            return AttributeOrderCache.Step(
                position: Int32(position), keyStart: Int32(span.lowerBound + skip), keyCount: Int32(span.count - skip))
        }
    }

    private mutating func header(t: Int, into w: inout JSONBuffer) {
        if let session {
            w.literal("\"session\":")
            w.string(session)
            w.raw(UInt8(ascii: ","))
        }
        // An event's metrics come first with the same t, so the header often repeats: copy it.
        if t == lastHeader.t, lastHeader.count > 0 {
            w.append(lastHeader.bytes, start: 0, count: lastHeader.count)
            return
        }
        let start = w.count
        w.literal("\"t\":")
        w.int(t)
        w.literal(",\"time\":\"")
        let out = w.reserve(32)
        w.commit(times.write(epochMilliseconds: startTime + t, to: out))
        w.raw(UInt8(ascii: "\""))
        lastHeader.t = t
        lastHeader.count = w.count - start
        w.withUnsafeBytes { written in
            lastHeader.bytes.replace(at: 0, with: UnsafeBufferPointer(rebasing: written[start...]))
        }
    }
}

extension JSONBuffer {
    /// A fixed piece of JSON. A named StaticString entry point, because a bare string literal
    /// would pick `raw(_: String)` and build a String per record.
    @inline(__always)
    mutating func literal(_ text: StaticString) { raw(text) }
}
