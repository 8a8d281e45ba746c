import AVTCore
import AVTFormats
import AVTJSON

/// `--format table`: one aligned line per record for people, streamed with fixed column widths:
///
/// ```
///         t  type    action/metric        tracker    details
///     1.350  event   BufferFinish         content    took 1150ms accumBufferTime=1150 bitrate=2500000
///     1.400  metric  StartTime                       gauge = 1400
///     1.400  metric  NumPlays                        counter +1
///     1.400  event   Start                content    [play] countStarts=1
/// ```
///
/// `t` is virtual seconds with milliseconds. An event's details are the duration a `…Finish`
/// closes (its `timeSince…Begin`), the state blocks in brackets (`[play pause]` from the
/// `in…Block` attributes), then the attributes whose value changed since the previous event that
/// carried them, sorted by name (ids shortened, long text cut; senderId, isAdsTracker,
/// deltaPlayTime — the PlayTime metric — and time-since attributes left out; zeros and `false`
/// left out when first seen). Colour (ANSI) only when
/// `color` is true: the caller decides (a terminal, and no NO_COLOR).
package final class TableRecordBackend: RecordBackend {
    package let encoder: RecordEncoder
    package let filter: RecordFilter
    package let color: Bool
    package private(set) var writeError: OutputError?
    private let sink: ByteSink
    private var out: [UInt8] = []
    /// The last value each attribute had on any event (by attribute index).
    private var previous: [Int32: AttributeValue] = [:]
    private var finished = false

    static let tWidth = 9
    static let typeWidth = 6
    static let nameWidth = 20
    static let trackerWidth = 10

    private static let blocks: [(Attribute, String)] = [
        (.inPlaybackBlock, "play"), (.inPauseBlock, "pause"), (.inBufferBlock, "buffer"), (.inSeekBlock, "seek"),
        (.inAdBreakBlock, "break"), (.inAdBlock, "ad"),
    ]
    private static let hidden: Set<Attribute> = [
        .senderId, .isAdsTracker, .deltaPlayTime, .inPlaybackBlock, .inPauseBlock, .inBufferBlock, .inSeekBlock,
        .inAdBreakBlock, .inAdBlock,
    ]
    private static let identifiers: Set<Attribute> = [.playbackId, .streamId, Attribute("instrumentId")]

    package init(sink: ByteSink, encoder: RecordEncoder, filter: RecordFilter = RecordFilter(), color: Bool = false) {
        self.sink = sink
        self.encoder = encoder
        self.filter = filter
        self.color = color
        out.reserveCapacity(1 << 16)
        if let session = encoder.session {
            paint("1") { $0.text("== \(TerminalText.escaped(session)) ==") }
            newline()
        }
        paint("2") { table in
            table.text(Self.pad("t", Self.tWidth, right: true))
            table.text("  ")
            table.text(Self.pad("type", Self.typeWidth))
            table.text("  ")
            table.text(Self.pad("action/metric", Self.nameWidth))
            table.text(" ")
            table.text(Self.pad("tracker", Self.trackerWidth))
            table.text(" ")
            table.text("details")
        }
        newline()
    }

    package func sendMetric(_ metric: Metric) {
        guard filter.metrics, writeError == nil, !finished else { return }
        time(metric.timestamp)
        paint("36") { $0.text(Self.pad("metric", Self.typeWidth)) }
        text("  ")
        paint("36") { $0.text(Self.pad(TerminalText.escaped(metric.name), Self.nameWidth)) }
        text(" ")
        text(Self.pad("", Self.trackerWidth))
        text(" ")
        switch metric.kind {
        case .counter:
            paint("2") { $0.text("counter ") }
            paint("1") {
                $0.text(
                    metric.value.description.hasPrefix("-") ? metric.value.description : "+" + metric.value.description)
            }
        case .gauge:
            paint("2") { $0.text("gauge = ") }
            paint("1") { $0.text(metric.value.description) }
        }
        newline()
    }

    package func sendEvent(_ event: Event) {
        guard filter.events, writeError == nil, !finished else { return }
        time(event.timestamp)
        text(Self.pad("event", Self.typeWidth))
        text("  ")
        paint(Self.actionColor(event.action.name)) {
            $0.text(Self.pad(TerminalText.escaped(event.action.name), Self.nameWidth))
        }
        text(" ")
        // Names come from the timeline: escaped, so none can move the cursor or start a new line.
        let trackerName = TerminalText.escaped(
            event.trackerId.flatMap { encoder.trackerNames.indices.contains($0) ? encoder.trackerNames[$0] : nil }
                ?? "-")
        let parts = details(event)
        paint("34") { $0.text(parts.isEmpty ? trackerName : Self.pad(trackerName, Self.trackerWidth)) }
        for part in parts {
            text(" ")
            if let key = part.key {
                paint("2") { $0.text(TerminalText.escaped(key) + "=") }
                text(part.value)
            } else {
                paint(part.value.hasPrefix("[") ? "36" : "1") { $0.text(part.value) }
            }
        }
        newline()
    }

    package func endOfService() {
        guard !finished else { return }
        finished = true
        flush()
    }

    /// Writes out what is buffered.
    package func flush() {
        guard writeError == nil, !out.isEmpty else { return }
        do {
            try sink.write(out)
        } catch {
            writeError = error
        }
        out.removeAll(keepingCapacity: true)
    }

    // MARK: Details

    private func details(_ event: Event) -> [(key: String?, value: String)] {
        var parts: [(key: String?, value: String)] = []
        let name = event.action.name
        if name.hasSuffix("Finish") {
            let begin = Attribute("timeSince" + String(name.dropLast("Finish".count)) + "Begin")
            if case .int(let ms)? = event.attributes[begin] { parts.append((nil, "took \(ms)ms")) }
        }
        let states = Self.blocks.compactMap { event.attributes[$0.0] == .bool(true) ? $0.1 : nil }
        if !states.isEmpty { parts.append((nil, "[" + states.joined(separator: " ") + "]")) }

        var changed: [(name: String, value: AttributeValue, attribute: Attribute)] = []
        event.attributes.forEachEntry { attribute, value in
            guard !Self.hidden.contains(attribute) else { return }
            let name = attribute.name
            if name.hasPrefix("timeSince") { return }
            let old = previous.updateValue(value, forKey: attribute.index)
            if let old {
                if old == value { return }
            } else if value == .int(0) || value == .bool(false) {
                return
            }
            changed.append((name, value, attribute))
        }
        changed.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        for entry in changed {
            parts.append((entry.name, Self.show(entry.value, identifier: Self.identifiers.contains(entry.attribute))))
        }
        return parts
    }

    /// A value as it reads in the details: text plain when it cannot be mistaken for anything
    /// else, else JSON-quoted; ids and long text shortened.
    static func show(_ value: AttributeValue, identifier: Bool) -> String {
        guard case .string(var s) = value else { return value.description }
        if identifier, s.count > 9 { return TerminalText.escaped(String(s.prefix(8))) + "…" }
        if s.count > 40 { s = String(s.prefix(39)) + "…" }
        // Quoted when it could pass for another value (`"true"`, `"12"`) or has spaces or escapes.
        let plain = !CSVField.needsJSON(s) && !s.utf8.contains { $0 <= 0x20 || $0 == 0x22 || $0 == 0x7F || $0 == 0x5C }
        if plain { return s }
        var w = JSONWriter(capacity: s.utf8.count + 2)
        w.string(s)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    static func actionColor(_ name: String) -> String {
        switch name {
        case "Start", "End", "Stop", "Next": return "1;32"
        case "Error", "AdError": return "1;31"
        case "Ping": return "2"
        default:
            if name.hasPrefix("Ad") { return "1;35" }
            if name.hasPrefix("Buffer") || name.hasPrefix("Seek") || name.hasPrefix("Pause") { return "1;33" }
            return "1"
        }
    }

    // MARK: Text

    /// `t` as seconds with milliseconds, right-aligned.
    static func seconds(_ t: Int) -> String {
        let sign = t < 0 ? "-" : ""
        let ms = t.magnitude
        let fraction = String(ms % 1000)
        return sign + String(ms / 1000) + "." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    static func pad(_ s: String, _ width: Int, right: Bool = false) -> String {
        let count = s.count
        guard count < width else { return s }
        let fill = String(repeating: " ", count: width - count)
        return right ? fill + s : s + fill
    }

    private func time(_ t: Int) {
        paint("2") { $0.text(Self.pad(Self.seconds(t), Self.tWidth, right: true)) }
        text("  ")
    }

    private func text(_ s: String) {
        out.append(contentsOf: s.utf8)
    }

    /// Wraps what `body` writes in an SGR colour when colour is on.
    private func paint(_ sgr: String, _ body: (TableRecordBackend) -> Void) {
        if color { text("\u{1B}[\(sgr)m") }
        body(self)
        if color { text("\u{1B}[0m") }
    }

    private func newline() {
        out.append(0x0A)
        if out.count >= 1 << 16 { flush() }
    }
}
