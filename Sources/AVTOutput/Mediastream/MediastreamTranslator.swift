import AVTCore

/// Turns the OpenAVT events a backend receives into the events Mediastream's collector sends
/// (docs/outputs.md). It works on the virtual clock only:
///
/// - the collector's 10 s report is a virtual timer anchored at the playback's `Start`
///   (Start + 10 s, + 20 s, …); it cannot fire by itself inside a backend, so the reports due
///   at or before a record's time are produced when that record arrives, each at its own due
///   time, before the record (as the engine fires its own timers), and the rest at `finish`;
/// - at a report time the collector sends `buffering` during a stall, `playing` while playing,
///   and nothing while paused or seeking;
/// - `relative_streamed_time` (time playing: started, not paused, buffering or seeking) and
///   `buffering_time` count from the previous report that carried them and restart at zero
///   there, so over a playback they add up to its play time and its buffer time;
/// - a session ends after 30 minutes without a Mediastream event; the next one gets a new id.
package final class MediastreamTranslator {
    package let options: MediastreamOptions
    private var deviceId = ""
    private var output: [MediastreamEvent] = []
    /// Virtual time up to which the counters are accounted.
    private var now = 0
    private var finished = false

    private var sessionOrdinal = 0
    private var sessionId: String?
    private var lastReportAt: Int?

    private var contentIdAttribute: String?
    private var uniqueIdAttribute: String?
    private var playbackId: String?
    private var playback = Playback()

    /// What the collector knows about the current playback; reset after End, Stop and Next.
    private struct Playback {
        var loadStartedAt: Int?
        var loaded = false
        var started = false
        var paused = false
        var buffering = false
        var seeking = false
        var nextReport: Int?
        /// Milliseconds playing / buffering since the previous report that carried them.
        var streamed = 0
        var buffered = 0
        /// The last new position an event carried, and the ms played since (to extrapolate).
        var positionBase: Int?
        var playedSinceBase = 0
        var lastCarriedPosition: Int?
        var fromPosition: Int?
        var duration: Int?
        var bitrate: Double?
        var audioBitrate: Double?
        var bandwidth: Double?
        var width: Int?
        var height: Int?

        var playing: Bool { started && !paused && !buffering && !seeking }
    }

    package init(options: MediastreamOptions = MediastreamOptions()) { self.options = options }

    /// The instrument's id stands for the device: the default `unique_id` and the root of the
    /// session ids.
    package func start(instrumentId: String) { deviceId = instrumentId }

    /// The Mediastream events due up to this event's time, then the event's own.
    package func consume(_ event: Event) -> [MediastreamEvent] {
        guard !finished else { return [] }
        advance(to: event.timestamp)
        // Ads have no counterpart: the collector reports content only.
        guard event.attributes[.isAdsTracker] != .bool(true), !event.action.name.hasPrefix("Ad") else { return take() }
        let t = event.timestamp
        // Where the player was before this event: some players (AVPlayer's timeJumped) already
        // report the seek's target on its first event.
        let positionBefore = position
        learn(event)
        switch event.action {
        case .streamLoad, .playerReady:
            if !playback.loaded {
                playback.loaded = true
                report(.playerLoaded, at: t) { $0.playerLoadingTime = t - (self.playback.loadStartedAt ?? t) }
            }
        case .start:
            guard !playback.started else { break }
            playback.started = true
            playback.nextReport = t + options.reportInterval
            if playback.positionBase == nil { playback.positionBase = 0 }
            report(.play, at: t)
        case .pauseBegin:
            playback.paused = true
            report(.pause, at: t)
        case .pauseFinish:
            playback.paused = false
            report(.play, at: t)
        case .bufferBegin:
            playback.buffering = true
        case .bufferFinish:
            playback.buffering = false
            if playback.buffered > 0 { reportBuffering(at: t) }
        case .seekBegin:
            playback.seeking = true
            playback.fromPosition = positionBefore ?? position
        case .seekFinish:
            playback.seeking = false
            let from = playback.fromPosition
            report(.seek, at: t) { $0.fromPosition = from }
            playback.fromPosition = nil
        case .end:
            flush(at: t)
            report(.contentEnd, at: t)
            playback = Playback()
        case .stop, .next:
            flush(at: t)
            playback = Playback()
        default:
            break
        }
        return take()
    }

    /// The reports due up to `t` (the replay's end) and a last report of what is still counted.
    package func finish(at t: Int) -> [MediastreamEvent] {
        guard !finished else { return [] }
        finished = true
        advance(to: max(t, now))
        flush(at: now)
        return take()
    }

    // MARK: Time

    private func advance(to t: Int) {
        while let due = playback.nextReport, due <= t {
            account(to: due)
            if playback.buffering {
                if playback.buffered > 0 { reportBuffering(at: due) }
            } else if playback.playing {
                reportPlaying(at: due)
            }
            playback.nextReport = due + options.reportInterval
        }
        account(to: t)
    }

    private func account(to t: Int) {
        let elapsed = t - now
        guard elapsed > 0 else { return }
        if playback.playing {
            playback.streamed += elapsed
            playback.playedSinceBase += elapsed
        }
        if playback.buffering { playback.buffered += elapsed }
        now = t
    }

    // MARK: Reports

    /// What is counted but not yet reported: `playing`, then `buffering`.
    private func flush(at t: Int) {
        if playback.streamed > 0 { reportPlaying(at: t) }
        if playback.buffered > 0 { reportBuffering(at: t) }
    }

    private func reportPlaying(at t: Int) {
        let p = playback
        report(.playing, at: t) {
            $0.relativeStreamedTime = p.streamed
            if let width = p.width, let height = p.height { $0.contentResolution = "\(width)x\(height)" }
            $0.contentVideoBitrate = p.bitrate.map(Self.kbps)
            $0.contentAudioBitrate = p.audioBitrate.map(Self.kbps)
            $0.bandwith = p.bandwidth.map(Self.kbps)
        }
        playback.streamed = 0
    }

    private func reportBuffering(at t: Int) {
        let buffered = playback.buffered
        report(.buffering, at: t) { $0.bufferingTime = buffered }
        playback.buffered = 0
    }

    private func report(_ name: MediastreamEvent.Name, at t: Int, _ fill: (inout MediastreamEvent) -> Void = { _ in }) {
        if sessionId == nil || lastReportAt.map({ t - $0 >= options.sessionTimeout }) == true {
            sessionOrdinal += 1
            sessionId = DerivedIdentifier.uuid("session\n\(deviceId)\n\(options.input ?? "")\n\(sessionOrdinal)")
        }
        lastReportAt = t
        var event = MediastreamEvent(name, t: t, timestamp: options.startTime + t)
        event.contentId = options.contentId ?? contentIdAttribute
        event.playbackId = playbackId.map(keptApart)
        event.uniqueId = options.uniqueId ?? uniqueIdAttribute ?? (deviceId.isEmpty ? nil : keptApart(deviceId))
        event.sessionId = sessionId
        if name.fields.contains(.position) { event.position = position }
        if name.fields.contains(.duration) { event.duration = playback.duration }
        fill(&event)
        output.append(event)
    }

    /// bps → kbps, rounded to the nearest integer (halves away from zero).
    static func kbps(_ bps: Double) -> Int { Int((bps / 1000).rounded()) }

    /// The last new position an event carried plus the time played since, never past the duration.
    private var position: Int? {
        guard let base = playback.positionBase else { return nil }
        guard playback.playedSinceBase > 0 else { return base }
        let extrapolated = base + playback.playedSinceBase
        if let duration = playback.duration, duration > 0, base <= duration { return min(extrapolated, duration) }
        return extrapolated
    }

    /// Ids of one input as they are; with several inputs (which replay with the same seeded
    /// ids) mixed with the input's path.
    private func keptApart(_ id: String) -> String {
        guard let input = options.input else { return id }
        return DerivedIdentifier.uuid(input + "\n" + id)
    }

    private func take() -> [MediastreamEvent] {
        defer { output.removeAll(keepingCapacity: true) }
        return output
    }

    // MARK: Attributes

    private func learn(_ event: Event) {
        let a = event.attributes
        if playback.loadStartedAt == nil { playback.loadStartedAt = event.timestamp }
        if let id = a[.playbackId]?.stringValue { playbackId = id }
        if let id = Self.text(a["contentId"]) { contentIdAttribute = id }
        if let id = Self.text(a["uniqueId"]) { uniqueIdAttribute = id }
        // A position getter answers on every event, and a scripted one repeats its last value;
        // only a new value says where the player is (a playing player's position moves).
        if let position = Self.number(a[.position]).map({ Int($0) }), position != playback.lastCarriedPosition {
            playback.lastCarriedPosition = position
            playback.positionBase = position
            playback.playedSinceBase = 0
        }
        if let duration = Self.number(a[.duration]) { playback.duration = Int(duration) }
        if let bitrate = Self.number(a[.bitrate]) { playback.bitrate = bitrate }
        if let bitrate = Self.number(a["audioBitrate"]) { playback.audioBitrate = bitrate }
        if let bandwidth = Self.number(a["bandwidth"]) { playback.bandwidth = bandwidth }
        if let width = Self.number(a[.resolutionWidth]) { playback.width = Int(width) }
        if let height = Self.number(a[.resolutionHeight]) { playback.height = Int(height) }
    }

    private static func number(_ value: AttributeValue?) -> Double? {
        switch value {
        case .int(let v) where v.magnitude < 9_000_000_000_000_000: return Double(v)
        // Finite and within Int's exact range, so the conversions above cannot trap.
        case .double(let v) where v.isFinite && abs(v) < 9e15: return v
        default: return nil
        }
    }

    private static func text(_ value: AttributeValue?) -> String? {
        switch value {
        case .string(let v) where !v.isEmpty: return v
        case .int(let v): return String(v)
        default: return nil
        }
    }
}
