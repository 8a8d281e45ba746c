import AVTCore
import AVTJSON
import AVTTrackers

/// The coarse timeline an access log's sessions become (docs/player-logs.md): each session
/// loads, plays after its first event's startup time, then each event plays for its watched
/// time with its stalls, seeks, variant switches, transfer totals and error entries, and ends
/// with a `Stop` and the player's release. Sessions are laid end to end on the virtual clock.
struct AccessLogTimeline {
    /// Stalls replayed at most, per log: each is two steps held in memory, and a hostile log
    /// could claim billions. Real logs have a handful.
    static let stallLimit = 100_000

    /// Where the next session begins on the virtual clock.
    private var cursor = 0
    private var stallSteps = 0
    private var stepIndex = 0

    /// The steps of the session `number` (0-based, in the log's order) with its error log
    /// entries, after the sessions laid out before it: one session at a time, so that only its
    /// events are held whole, not the log's timeline.
    mutating func layOut(_ session: AccessLogSession, number: Int, errors: [AccessLogErrorEntry]) -> [Step] {
        var steps: [Step] = []
        // A step per event that plays, and a few more (start, switches, end): one allocation.
        steps.reserveCapacity(session.rows.count + errors.count + 8)
        let base = stepIndex
        defer { stepIndex = base + steps.count }
        // Worked on as a local and stored back: the nested functions below capture it.
        var cursor = self.cursor
        defer { self.cursor = cursor }
        func add(_ t: Int, tracker: Int, line: Int, _ observe: [Observation], action: Action? = nil) {
            var step = Step(
                t: min(t, FieldReader.maxMilliseconds), tracker: tracker, observe: observe,
                origin: StepOrigin(index: base + steps.count, location: SourceLocation(line: line, column: 1)))
            step.action = action
            steps.append(step)
        }
        let tracker = min(number, PlayerLogTrackers.limit - 1)
        /// Where the log's knowledge ends: the playback ends here, the next session is new. The
        /// session's own tracker gets nothing more (the last one is shared by the sessions past
        /// the limit): `kpi` can fold its playback now instead of holding it to the end.
        func end(line: Int) {
            add(cursor, tracker: tracker, line: line, [], action: .stop)
            add(cursor, tracker: tracker, line: line, [Observation(.release, .bool(true))])
            steps[steps.count - 1].endsTracker = tracker < PlayerLogTrackers.limit - 1
        }
        guard let first = session.rows.firstIndex(where: { $0.date != nil }) else {
            // Never played: the stream loaded, nothing more is known. Its wait ends there too,
            // not with the sessions laid out after it.
            if let row = session.rows.first {
                add(cursor, tracker: tracker, line: row.line, [Observation(.status, .string("readyToPlay"))])
                end(line: row.line)
            }
            return steps
        }
        let start = session.rows[first]
        add(cursor, tracker: tracker, line: start.line, [Observation(.status, .string("readyToPlay"))])
        cursor = cursor.saturatingAdd(start.startup ?? 0)
        let pendingErrors = Self.errorTimes(errors, session: session, startsAt: cursor)
        var nextError = 0
        /// The session's error log entries due by `t`, each at its place on the coarse timeline.
        func addErrors(upTo t: Int, tracker: Int) {
            while nextError < pendingErrors.count, pendingErrors[nextError].t <= t {
                let (at, entry) = pendingErrors[nextError]
                nextError += 1
                add(at, tracker: tracker, line: entry.line, [Observation(.errorLogEvent, .string(entry.text))])
            }
        }
        var playing = false
        // Ascending: walked along with the events.
        let seeks = session.seekRows
        var nextSeek = 0
        let switches = session.variantSwitches
        var nextSwitch = 0
        /// The switches to events up to `row`: dateless events are not on the timeline, so a
        /// switch to one shows with the next event that plays (or at the session's end).
        func addSwitches(upTo row: Int, at t: Int, line: Int) {
            while nextSwitch < switches.count, switches[nextSwitch].row <= row {
                add(
                    t, tracker: tracker, line: line, [],
                    action: switches[nextSwitch].up ? .qualityChangeUp : .qualityChangeDown)
                nextSwitch += 1
            }
        }
        var dropped = 0
        // Running totals of bytes and transfer time, over every event up to the one that
        // plays (dateless events download too): the KPIs' mean bandwidth.
        var transfer = (bytes: 0, time: 0, counted: 0, sent: 0)
        func transfers(upTo row: Int, into observe: inout [Observation]) {
            while transfer.counted <= row, transfer.counted < session.rows.count {
                let event = session.rows[transfer.counted]
                if let time = AccessLogSession.transferTime(event) {
                    transfer.bytes = transfer.bytes.addingClamped(event.bytes)
                    transfer.time = transfer.time.addingClamped(time)
                }
                transfer.counted += 1
            }
            guard transfer.bytes != transfer.sent else { return }
            transfer.sent = transfer.bytes
            observe.append(Observation(.bytesTransferred, .int(transfer.bytes)))
            observe.append(Observation(.transferDuration, .int(transfer.time)))
        }
        for (index, row) in session.rows.enumerated() where index >= first && row.date != nil {
            addErrors(upTo: cursor, tracker: tracker)
            while nextSeek < seeks.count, seeks[nextSeek] < index { nextSeek += 1 }
            var observe: [Observation] = []
            observe.reserveCapacity(8)
            observe.append(Observation(.currentTime, .int(row.startTime)))
            if let observed = row.observedBitrate { observe.append(Observation(.observedBitrate, .int(Int(observed)))) }
            if let indicated = row.indicatedBitrate {
                observe.append(Observation(.indicatedBitrate, .int(Int(indicated))))
            }
            // AVPlayerItem's dropped frames are a running total over the item's events.
            if row.framesDropped > 0 {
                dropped = dropped.addingClamped(row.framesDropped)
                observe.append(Observation(.droppedVideoFrames, .int(dropped)))
            }
            transfers(upTo: index, into: &observe)
            if !playing {
                playing = true
                observe.append(Observation(.rate, .int(1)))
                observe.append(Observation(.timeControlStatus, .string("playing")))
            } else if nextSeek < seeks.count, seeks[nextSeek] == index {
                // A seek between two events: the player jumped and waited (no duration in
                // the log), then this event plays from its c-start-time.
                add(
                    cursor, tracker: tracker, line: row.line,
                    [
                        Observation(.timeControlStatus, .string("waitingToPlayAtSpecifiedRate")),
                        Observation(.notification, .string("timeJumped")),
                    ])
                observe.append(Observation(.timeControlStatus, .string("playing")))
            }
            add(cursor, tracker: tracker, line: row.line, observe)
            addSwitches(upTo: index, at: cursor, line: row.line)
            cursor = cursor.saturatingAdd(row.watched)
            let replayed = Swift.min(row.stalls, Swift.max(0, Self.stallLimit - stallSteps))
            stallSteps += replayed
            for _ in 0..<replayed {
                add(
                    cursor, tracker: tracker, line: row.line,
                    [Observation(.timeControlStatus, .string("waitingToPlayAtSpecifiedRate"))])
                add(cursor, tracker: tracker, line: row.line, [Observation(.timeControlStatus, .string("playing"))])
            }
        }
        addErrors(upTo: .max, tracker: tracker)
        let last = session.rows.last?.line ?? start.line
        addSwitches(upTo: .max, at: cursor, line: last)
        var trailing: [Observation] = []
        transfers(upTo: session.rows.count - 1, into: &trailing)
        if !trailing.isEmpty { add(cursor, tracker: tracker, line: last, trailing) }
        end(line: last)
        return steps
    }

    /// Where each error entry falls on a session's coarse timeline: within the dated event that
    /// was playing at its date (the latest event that began by then: its start plus the time
    /// since, at most its watched time), at the first event's start when it is earlier, at the
    /// session's end when dateless. A binary search per entry: a hostile log with many events
    /// and many errors stays fast.
    static func errorTimes(_ entries: [AccessLogErrorEntry], session: AccessLogSession, startsAt: Int)
        -> [(t: Int, entry: AccessLogErrorEntry)]
    {
        var stretches: [(date: Int, t: Int, watched: Int)] = []
        var cursor = startsAt
        for row in session.rows {
            guard let date = row.date else { continue }
            stretches.append((date, cursor, row.watched))
            cursor = cursor.saturatingAdd(row.watched)
        }
        // By date, events of the same date in log order (the later one wins).
        let byDate = stretches.enumerated().sorted { ($0.element.date, $0.offset) < ($1.element.date, $1.offset) }
            .map(\.element)
        let timed = entries.map { entry -> (t: Int, entry: AccessLogErrorEntry) in
            guard let date = entry.date else { return (cursor, entry) }
            // The number of events that began by `date`.
            var low = 0
            var high = byDate.count
            while low < high {
                let middle = (low + high) / 2
                if byDate[middle].date <= date { low = middle + 1 } else { high = middle }
            }
            guard low > 0 else { return (startsAt, entry) }
            let stretch = byDate[low - 1]
            let since = Swift.min(Swift.max(0, date.subtractingClamped(stretch.date)), stretch.watched)
            return (stretch.t.saturatingAdd(since), entry)
        }
        // In time order; entries at the same time keep the log's order.
        return timed.enumerated().sorted { ($0.element.t, $0.offset) < ($1.element.t, $1.offset) }.map(\.element)
    }
}

extension Int {
    /// `self − other`, clamped: hostile dates must not trap.
    fileprivate func subtractingClamped(_ other: Int) -> Int {
        let (difference, overflow) = subtractingReportingOverflow(other)
        return overflow ? (other > 0 ? .min : .max) : difference
    }

    fileprivate func saturatingAdd(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? FieldReader.maxMilliseconds : Swift.min(sum, FieldReader.maxMilliseconds)
    }
}
