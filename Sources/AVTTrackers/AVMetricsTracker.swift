import AVTCore
import AVTJSON

/// Apple's AVMetrics events (iOS 18 `AVPlayerItem.metrics`) turned into OpenAVT actions. Each
/// `observe` step is one event: `{"event": "AVMetricPlayerItemStallEvent", "date": …, …}` with
/// Apple's property names and units (docs/trackers.md has the table).
///
/// Like the other trackers it over-emits and lets the hub block: every likely-to-keep-up emits
/// BufferFinish, every media playlist request StreamLoad, and the hub drops those that change
/// nothing.
open class AVMetricsTracker: ScriptableTracker {
    private static let rules: [String: ObservationRule] = {
        var rules: [String: ObservationRule] = ["event": .oneOf(AVMetricsSchema.classNames)]
        for (key, shape) in AVMetricsSchema.allProperties {
            rules[key] = ObservationRule(expected: shape.expected) { shape.diagnose($0, path: "", location: nil) }
        }
        return rules
    }()

    open override class var observationRules: [String: ObservationRule] { rules }

    /// One event per step: `event` names a class, and every other key is a property of that
    /// class. The order of the keys does not matter, so they are kept sorted (which also keeps a
    /// CSV conversion from splitting the event over several rows).
    open override class func checkObservations(_ observations: inout [Observation]) -> ObservationSetProblem? {
        guard let name = observations.first(where: { $0.key == "event" }).flatMap({ PlayerValue.string($0.value) })
        else {
            return ObservationSetProblem(
                key: nil,
                message:
                    "an avmetrics observation needs \"event\": the AVMetrics class name, such as \"\(AVMetricsSchema.stall)\""
            )
        }
        guard let properties = AVMetricsSchema.properties(of: name) else { return nil }  // the rule already rejected it
        for observation in observations where observation.key != "event" {
            guard properties.contains(where: { $0.0 == observation.key }) else {
                return ObservationSetProblem(
                    key: observation.key,
                    message: "\"\(observation.key)\" is not a property of \(name): expected one of: "
                        + properties.map(\.0).joined(separator: ", "))
            }
        }
        if let missing = AVMetricsSchema.required(of: name).first(where: { key in
            !observations.contains { $0.key == key }
        }) {
            return ObservationSetProblem(key: "event", message: "\(name) needs \"\(missing)\"")
        }
        observations.sort { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        return nil
    }

    // What the events told about the player.
    private var playhead = Playhead()
    /// 1× until an event tells a rate.
    private var rate: Double = 1
    private var started = false
    private var stalled = false
    private var seeking = false
    private var variant: AVMetricsVariant?
    /// The unrecovered error for the next Error event.
    private var lastError: (description: String?, code: Int?)?

    // MARK: Getters

    open override func playerReady(_ instrument: Instrument) {
        registerPlayerGetter(.trackerTarget, instrument) { .string("AVMetrics") }
        registerPlayerGetter(.position, instrument, reading: self) { tracker in
            tracker.playhead.position(at: tracker.virtualNow).flatMap(truncatedInt).map(AttributeValue.int)
        }
        registerPlayerGetter(.bitrate, instrument, reading: self) { tracker in
            tracker.variant?.bitrate.flatMap(truncatedInt).map(AttributeValue.int)
        }
        registerPlayerGetter(.resolutionWidth, instrument, reading: self) { tracker in
            tracker.variant?.width.flatMap(truncatedInt).map(AttributeValue.int)
        }
        registerPlayerGetter(.resolutionHeight, instrument, reading: self) { tracker in
            tracker.variant?.height.flatMap(truncatedInt).map(AttributeValue.int)
        }
        registerPlayerGetter(.fps, instrument, reading: self) { $0.variant?.frameRate.map(AttributeValue.double) }
    }

    // MARK: Events

    open override func observe(step observations: [Observation]) {
        guard let record = AVMetricsRecord(observations) else { return }
        let now = virtualNow
        if let mediaTime = record.number("mediaTime") { playhead.set(mediaTime * 1000, at: now) }
        if let rate = record.number("rate") { self.rate = rate }
        if let current = record.variant("variant") { variant = current }
        switch record.event {
        case AVMetricsSchema.playlistRequest:
            // The multivariant playlist is the manifest; a media playlist loads a stream (the hub
            // accepts the first StreamLoad only, so live playlist reloads change nothing).
            emit(record.bool("isMultivariantPlaylist") == true ? .manifestLoad : .streamLoad)
        case AVMetricsSchema.initialLikelyToKeepUp:
            started = true
            emit(.start)
        case AVMetricsSchema.likelyToKeepUp:
            stalled = false
            emit(.bufferFinish)
        case AVMetricsSchema.stall:
            stalled = true
            emit(.bufferBegin)
        case AVMetricsSchema.rateChange:
            let previous = record.number("previousRate") ?? 0
            if previous == 0, rate != 0 { emit(.pauseFinish) }
            if previous != 0, rate == 0 { emit(.pauseBegin) }
        case AVMetricsSchema.seek:
            seeking = true
            emit(.seekBegin)
        case AVMetricsSchema.seekDidComplete:
            seeking = false
            emit(.seekFinish)
        case AVMetricsSchema.variantSwitch:
            guard record.bool("didSucceed") == true, let to = record.variant("toVariant") else { break }
            let from = record.variant("fromVariant")
            variant = to
            let change: Int? = from.flatMap { to.compare(to: $0) }
            if change == 1 { emit(.qualityChangeUp) }
            if change == -1 { emit(.qualityChangeDown) }
        case AVMetricsSchema.error:
            guard record.bool("didRecover") == false else { break }
            let error = record["error"]
            lastError = (
                error.flatMap(AVMetricsValue.errorDescription),
                error.flatMap { PlayerValue.member("code", of: $0) }.flatMap(PlayerValue.integer)
            )
            emit(.error)
        case AVMetricsSchema.playbackSummary:
            started = false
            emit(.end)
        default:
            break  // request events other than playlists, switch starts: data for `kpi` only
        }
        playhead.setSpeed(started && !stalled && !seeking ? rate : 0, at: now)
    }

    /// Gives an Error event the last error event's description and code.
    open override func initEvent(_ event: consuming Event) -> Event? {
        guard var event = super.initEvent(event) else { return nil }
        if event.action == .error {
            if let lastError {
                if let description = lastError.description { event[.errorDescription] = .string(description) }
                if let code = lastError.code { event[PlayerAttribute.errorCode] = .int(code) }
            }
            lastError = nil
        }
        return event
    }
}
