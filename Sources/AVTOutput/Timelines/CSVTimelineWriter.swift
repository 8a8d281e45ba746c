import AVTCore
import AVTFormats
import AVTJSON
import AVTTimeline
import AVTTrackers

/// A CSV timeline: the `#avtreplay {settings}` line, the header row, one row per step.
///
/// The columns are `t`, `tracker`, `action`, then the `set.*`, `observe.*` and `attributes.*`
/// keys the steps use, each group sorted by UTF-8 bytes. They are known only after the last step,
/// so rows wait in a spool (memory up to a threshold, then an unlinked temporary file) and
/// `finish` writes everything.
///
/// Cells are typed (`CSVField`): a string is plain text when it reads back as itself, else JSON.
/// A step with no action, set or observation (a JSON `"set": {}`) has no CSV row; it only moves
/// the clock, which matters only for a last step that sets the default `until`, so then `until`
/// is written explicitly instead. A step whose observations are not in column order becomes
/// several rows at the same t (see `write`).
package final class CSVTimelineWriter: TimelineWriter {
    package let settings: TimelineSettings
    private let sink: ByteSink
    private let spool: CSVSpool
    private var setIDs: [Attribute: Int32] = [:]
    private var observeIDs: [String: Int32] = [:]
    private var attributeIDs: [Attribute: Int32] = [:]
    /// Column names by id: (group 0 set / 1 observe / 2 attributes, key).
    private var keys: [(group: Int, key: String)] = []
    private var lastT: Int?
    private var lastRowT: Int?
    private var finished = false

    package convenience init(settings: TimelineSettings, sink: ByteSink, maxColumns: Int = InputLimits().maxColumns) {
        self.init(settings: settings, sink: sink, spillThreshold: 1 << 20, maxColumns: maxColumns)
    }

    /// - Parameter spillThreshold: bytes of rows kept in memory before they go to a temporary file.
    /// - Parameters:
    ///   - spillThreshold: bytes of rows kept in memory before they go to a temporary file.
    ///   - maxColumns: `set.*`, `observe.*` and `attributes.*` columns allowed; past it, bad input.
    package init(
        settings: TimelineSettings, sink: ByteSink, spillThreshold: Int, maxColumns: Int = InputLimits().maxColumns
    ) {
        self.settings = settings
        self.sink = sink
        self.spool = CSVSpool(spillThreshold: spillThreshold, maxColumns: maxColumns)
    }

    package func write(_ step: Step) throws {
        guard settings.trackers.indices.contains(step.tracker) else {
            throw TimelineEncoding.badTracker(step, count: settings.trackers.count)
        }
        lastT = step.t
        guard step.action != nil || !step.set.isEmpty || !step.observe.isEmpty else { return }
        lastRowT = step.t
        // Observations apply in column order within a row: a step whose observations are in
        // another order becomes several rows at the same t, one per run in column order. Nothing
        // happens between them (no timer is due at the same instant), so the replay is the same.
        // A netstats step is one sample, not a sequence: its observations are put in column order
        // so it stays one row.
        let observe =
            settings.trackers[step.tracker].kind.observationsCommute
            ? step.observe.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) } : step.observe
        var runs: [ArraySlice<Observation>] = []
        var runStart = 0
        for i in observe.indices.dropFirst()
        where !observe[i - 1].key.utf8.lexicographicallyPrecedes(observe[i].key.utf8) {
            runs.append(observe[runStart..<i])
            runStart = i
        }
        runs.append(observe[runStart...])
        for (i, run) in runs.enumerated() {
            let last = i == runs.count - 1
            try row(
                step, set: i == 0 ? step.set[...] : [], observe: run, action: last ? step.action : nil,
                attributes: last && step.action != nil ? step.attributes[...] : [])
        }
    }

    private func row(
        _ step: Step, set: ArraySlice<(attribute: Attribute, value: AttributeValue?)>, observe: ArraySlice<Observation>,
        action: Action?, attributes: ArraySlice<(attribute: Attribute, value: AttributeValue)>
    ) throws(OutputError) {
        spool.beginRow()
        spool.bytes.int(step.t)
        spool.bytes.raw(UInt8(ascii: ","))
        CSVField.appendField(string: settings.trackers[step.tracker].name, to: &spool.bytes)
        spool.bytes.raw(UInt8(ascii: ","))
        if let action { CSVField.appendField(string: action.name, to: &spool.bytes) }
        spool.endFixed()
        for entry in set {
            spool.beginKeyed(id(&setIDs, entry.attribute, group: 0, name: entry.attribute.name))
            if let value = entry.value { CSVField.appendField(value, to: &spool.bytes) } else { spool.bytes.null() }
            spool.endKeyed()
        }
        for observation in observe {
            spool.beginKeyed(id(&observeIDs, observation.key, group: 1, name: observation.key))
            CSVField.appendField(observation.value, to: &spool.bytes)
            spool.endKeyed()
        }
        for entry in attributes {
            spool.beginKeyed(id(&attributeIDs, entry.attribute, group: 2, name: entry.attribute.name))
            CSVField.appendField(entry.value, to: &spool.bytes)
            spool.endKeyed()
        }
        try spool.endRow()
    }

    package func finish() throws(OutputError) {
        guard !finished else { return }
        finished = true
        var settings = self.settings
        if settings.until == nil, let lastT, lastRowT != lastT { settings.until = lastT }

        var head = JSONWriter(capacity: 4096)
        head.raw("#avtreplay {")
        TimelineEncoding.settingsMembers(settings, separator: ",", space: false, into: &head)
        head.raw("}\nt,tracker,action")
        let order = keys.indices.sorted { a, b in
            keys[a].group != keys[b].group
                ? keys[a].group < keys[b].group : keys[a].key.utf8.lexicographicallyPrecedes(keys[b].key.utf8)
        }
        let prefixes = ["set.", "observe.", "attributes."]
        for id in order {
            head.raw(UInt8(ascii: ","))
            CSVField.appendRaw(text: prefixes[keys[id].group] + keys[id].key, to: &head.bytes)
        }
        head.raw(UInt8(ascii: "\n"))
        try spool.finish(head: head.bytes, order: order.map { Int32($0) }, to: sink)
    }

    private func id<Key: Hashable>(_ table: inout [Key: Int32], _ key: Key, group: Int, name: @autoclosure () -> String)
        -> Int32
    {
        if let id = table[key] { return id }
        let id = Int32(keys.count)
        keys.append((group, name()))
        table[key] = id
        return id
    }
}
