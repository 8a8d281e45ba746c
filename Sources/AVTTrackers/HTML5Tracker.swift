import AVTCore
import AVTJSON

/// OpenAVT-JS's HTML5 media element tracker driven by timeline observations: media
/// element events by name, and the element's properties its getters read.
///
/// The element's `currentTime` moves with virtual time at 1× while it plays: from "playing"
/// (and from "play" or "seeked" once the element is neither paused nor waiting for data) until
/// "pause", "waiting", "seeking", "ended" or "error". A `currentTime` observation sets it.
open class HTML5Tracker: ScriptableTracker {
    /// Event name → actions in emit order (upstream's listeners). Other events are ignored.
    static let eventActions: [String: [Action]] = [
        "loadstart": [.streamLoad, .bufferBegin],
        "loadeddata": [.bufferFinish],
        "playing": [.start, .bufferFinish, .pauseFinish],
        "pause": [.pauseBegin],
        "seeking": [.seekBegin],
        "seeked": [.bufferFinish, .seekFinish],
        "waiting": [.bufferBegin],
        "ended": [.end],
        "error": [.error],
    ]

    /// The events an HTMLMediaElement fires (HTML Living Standard, "Media elements" events).
    static let mediaEvents = [
        "abort", "canplay", "canplaythrough", "durationchange", "emptied", "encrypted", "ended", "error",
        "loadeddata", "loadedmetadata", "loadstart", "pause", "play", "playing", "progress", "ratechange",
        "resize", "seeked", "seeking", "stalled", "suspend", "timeupdate", "volumechange", "waiting",
        "waitingforkey",
    ]

    /// The element's `error` property: a MediaError `{"code": 1–4, "message": "…"}`.
    static let mediaErrorRule = ObservationRule.object(
        [
            "code": ObservationRule(expected: "1…4") {
                guard let code = PlayerValue.integer($0) else { return false }
                return (1...4).contains(code)
            },
            "message": .string,
        ], required: ["code"], expected: "{\"code\": 1…4, \"message\": string}")

    private static let rules: [String: ObservationRule] = [
        "event": .oneOf(mediaEvents),
        "currentTime": ObservationRule.nonNegativeNumber.orNull,
        "duration": ObservationRule.nonNegativeNumber.orNull,
        "videoWidth": .nonNegativeInteger,
        "videoHeight": .nonNegativeInteger,
        "volume": .unitInterval,
        "muted": .bool,
        "currentSrc": .string,
        "lang": .string,
        "error": mediaErrorRule.orNull,
        // `getVideoPlaybackQuality().droppedVideoFrames`, read by the KPIs' state history only.
        "droppedVideoFrames": .nonNegativeInteger,
        // Read by the KPIs' state history only: the recording begins mid-playback.
        MidSession.key: MidSession.rule,
    ]

    open override class var observationRules: [String: ObservationRule] { rules }

    // The element as last observed. Times in ms.
    private var playhead = Playhead()
    private var paused = true
    /// Waiting for data (nothing loaded yet, "waiting", "seeking", "error").
    private var stalled = true
    private var ended = false
    private var duration: Double?
    private var videoWidth: Int?
    private var videoHeight: Int?
    private var volume: Double?
    private var muted: Bool?
    private var currentSrc: String?
    private var lang: String?
    private var mediaError: (code: Int, message: String?)?
    /// The element's error when it fired "error"; the Error event takes it.
    private var lastError: (code: Int, message: String?)?

    // MARK: Getters

    open override func playerReady(_ instrument: Instrument) {
        registerPlayerGetter(.trackerTarget, instrument) { .string("HTML5") }
        registerPlayerGetter(.position, instrument, reading: self) { tracker in
            tracker.playhead.position(at: tracker.virtualNow).flatMap(jsRoundedInt).map(AttributeValue.int)
        }
        registerPlayerGetter(.duration, instrument, reading: self) { tracker in
            tracker.duration.flatMap(jsRoundedInt).map(AttributeValue.int)
        }
        registerPlayerGetter(.resolutionHeight, instrument, reading: self) { $0.videoHeight.map(AttributeValue.int) }
        registerPlayerGetter(.resolutionWidth, instrument, reading: self) { $0.videoWidth.map(AttributeValue.int) }
        registerPlayerGetter(.isMuted, instrument, reading: self) { $0.muted.map(AttributeValue.bool) }
        registerPlayerGetter(.volume, instrument, reading: self) { tracker in
            tracker.volume.flatMap { jsRoundedInt($0 * 100) }.map(AttributeValue.int)
        }
        registerPlayerGetter(.source, instrument, reading: self) { $0.currentSrc.map(AttributeValue.string) }
        registerPlayerGetter(.language, instrument, reading: self) { tracker in
            tracker.lang.flatMap { $0.isEmpty ? nil : .string($0) }
        }
    }

    // MARK: Observations

    open override func observe(_ observation: Observation) {
        let value = observation.value
        switch observation.name {
        case .event:
            guard let name = PlayerValue.string(value) else { return }
            updatePlayhead(after: name)
            if name == "error" { lastError = mediaError }
            for action in Self.eventActions[name] ?? [] { emit(action) }
        case .currentTime:
            playhead.set(PlayerValue.number(value).map { $0 * 1000 }, at: virtualNow)
        case .duration:
            duration = PlayerValue.number(value).map { $0 * 1000 }
        case .videoWidth:
            videoWidth = PlayerValue.integer(value)
        case .videoHeight:
            videoHeight = PlayerValue.integer(value)
        case .volume:
            volume = PlayerValue.number(value)
        case .muted:
            muted = PlayerValue.bool(value)
        case .currentSrc:
            currentSrc = PlayerValue.string(value)
        case .lang:
            lang = PlayerValue.string(value)
        case .error:
            if let code = PlayerValue.member("code", of: value).flatMap(PlayerValue.integer) {
                mediaError = (code, PlayerValue.member("message", of: value).flatMap(PlayerValue.string))
            } else {
                mediaError = nil
            }
        default:
            break
        }
    }

    private func updatePlayhead(after event: String) {
        switch event {
        case "play":
            paused = false
            ended = false
        case "playing":
            paused = false
            stalled = false
            ended = false
        case "pause":
            paused = true
        case "waiting", "seeking", "error":
            stalled = true
        case "seeked":
            stalled = false
        case "ended":
            ended = true
        default:
            return
        }
        playhead.setSpeed(!paused && !stalled && !ended ? 1 : 0, at: virtualNow)
    }

    // MARK: Events

    /// Gives an Error event the player's last error (description, and type and code where the player has them).
    open override func initEvent(_ event: consuming Event) -> Event? {
        guard var event = super.initEvent(event) else { return nil }
        // Upstream leaves these as a TODO (MediaError message and code); we set them when the
        // timeline gave the element's `error` before its "error" event.
        if event.action == .error {
            if let lastError {
                if let message = lastError.message { event[.errorDescription] = .string(message) }
                event[PlayerAttribute.errorCode] = .int(lastError.code)
            }
            lastError = nil
        }
        return event
    }
}
