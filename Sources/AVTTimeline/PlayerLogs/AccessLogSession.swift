/// One playback session of an access log (one `cs-guid`): its events in order, de-duplicated
/// across dumps, and what they amount to. Every dump is a snapshot of the whole log so far, so
/// a later dump's event replaces the earlier dump's event of the same index (its values grow,
/// and after an audio switch can even shrink: the later snapshot is the one kept).
package struct AccessLogSession: Equatable {
    package var guid: String
    package var rows: [AccessLogRow] = []

    package init(guid: String) { self.guid = guid }

    /// Sets the event of `index` in the current dump. A later snapshot wins, except that an
    /// event's counters never go down and a throughput of 0 does not replace a measured one:
    /// after an audio switch AVFoundation rewrites frozen events with lower values (Apple
    /// FB22519249), and the earlier snapshot is the one that saw the playback.
    package mutating func set(_ row: consuming AccessLogRow, index: Int) {
        guard index < rows.count else {
            rows.append(row)
            return
        }
        // Merged in place: the old event's Strings are not copied.
        Self.merge(row, into: &rows[index])
    }

    private static func merge(_ row: consuming AccessLogRow, into old: inout AccessLogRow) {
        // The row is moved into `merged` and read from there: no copy of its Strings.
        var merged = row
        merged.watched = max(old.watched, merged.watched)
        merged.stalls = max(old.stalls, merged.stalls)
        merged.framesDropped = max(old.framesDropped, merged.framesDropped)
        // A snapshot cut short lacks its later values: the earlier snapshot's stand in.
        merged.startup = merged.startup ?? old.startup
        merged.indicatedBitrate = merged.indicatedBitrate ?? old.indicatedBitrate
        if (merged.observedBitrate ?? 0) == 0 { merged.observedBitrate = old.observedBitrate ?? merged.observedBitrate }
        // Bytes and the throughput measured over them stay a pair: from the snapshot that had
        // transferred more.
        if old.bytes > merged.bytes {
            merged.bytes = old.bytes
            merged.observedBitrate = old.observedBitrate
        }
        old = merged
    }

    /// The event's active transfer time in ms, from its bytes and the throughput measured over
    /// them (`observedBitrate` = bytes × 8 ÷ `transferDuration`, which the extended log omits):
    /// nil unless both were measured.
    package static func transferTime(_ row: AccessLogRow) -> Int? {
        guard row.bytes > 0, let observed = row.observedBitrate, observed > 0 else { return nil }
        let ms = (Double(row.bytes) * 8000 / observed).rounded()
        return ms < 1e15 ? Int(ms) : nil
    }

    /// `c-startup-time` of the first event that started playing (a date), ms.
    package var startupTime: Int? { rows.first { $0.date != nil }?.startup }
    /// Σ `c-stalls`: the log has a count per event and no duration.
    package var stalls: Int { rows.reduce(0) { $0.addingClamped($1.stalls) } }
    /// Σ `c-duration-watched`, each rounded to the ms.
    package var watched: Int { rows.reduce(0) { $0.addingClamped($1.watched) } }
    /// Σ `c-frames-dropped`.
    package var framesDropped: Int { rows.reduce(0) { $0.addingClamped($1.framesDropped) } }

    /// The indices of events that begin after a seek: a dated event after dateless placeholder
    /// events (AVFoundation adds two for a seek), or one whose `c-start-time` jumps away from
    /// where the previous event left off (its start plus its watched time). On the same variant
    /// a second away is a jump. A variant switch also begins a new event, and a frozen event's
    /// watched time can be under-reported (FB22519249), so across a switch a jump must also
    /// outrun the wall clock: more than the time between the two events' dates (one-second
    /// resolution each) ahead, or more than a second back.
    package var seekRows: [Int] {
        var result: [Int] = []
        var previous: AccessLogRow?
        var placeholders = 0
        for (index, row) in rows.enumerated() {
            guard row.date != nil else {
                placeholders += 1
                continue
            }
            if let previous {
                let leftOff = previous.startTime.addingClamped(previous.watched)
                if placeholders > 0 || Self.jumped(from: previous, leftOff: leftOff, to: row) {
                    result.append(index)
                }
            }
            previous = row
            placeholders = 0
        }
        return result
    }

    private static func jumped(from previous: AccessLogRow, leftOff: Int, to row: AccessLogRow) -> Bool {
        if row.uri == previous.uri { return abs(row.startTime - leftOff) > 1000 }
        if row.startTime < leftOff - 1000 { return true }
        guard let date = row.date, let previousDate = previous.date else { return false }
        let wall = max(0, date - previousDate)
        return row.startTime - previous.startTime > max(previous.watched, wall) + 2000
    }

    /// Variant switches: consecutive events on different URIs, up or down by their declared
    /// bitrate (`sc-indicated-bitrate`), each with the index of the event it switched to.
    package var variantSwitches: [(row: Int, up: Bool)] {
        var result: [(row: Int, up: Bool)] = []
        for index in rows.indices.dropFirst() where rows[index - 1].uri != rows[index].uri {
            guard let from = rows[index - 1].indicatedBitrate, let to = rows[index].indicatedBitrate, from != to
            else { continue }
            result.append((index, to > from))
        }
        return result
    }

    package var qualitySwitches: (up: Int, down: Int) {
        let switches = variantSwitches
        let up = switches.filter(\.up).count
        return (up, switches.count - up)
    }

    /// Watched-time-weighted mean of a bitrate over events that played, bps rounded; nil when
    /// nothing played.
    package func weightedBitrate(_ value: (AccessLogRow) -> Double?) -> Int? {
        var sum = 0.0
        var weight = 0
        for row in rows where row.watched > 0 {
            guard let rate = value(row) else { continue }
            sum += rate * Double(row.watched)
            weight = weight.addingClamped(row.watched)
        }
        return weight > 0 ? Int((sum / Double(weight)).rounded()) : nil
    }
}

extension Int {
    /// `self + other`, at most `Int.max`: a hostile log's counters must not trap the sum.
    package func addingClamped(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }
}
