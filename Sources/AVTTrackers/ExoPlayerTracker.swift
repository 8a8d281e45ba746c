import AVTCore
import AVTJSON

/// OpenAVT-Android's ExoPlayer tracker driven by timeline observations: the
/// player's listener callbacks (playback state, playWhenReady, seek start, errors, video size)
/// and the properties its getters read.
///
/// Every `playWhenReady` observation counts as a user request (upstream's
/// PLAY_WHEN_READY_CHANGE_REASON_USER_REQUEST), which arms the Start on READY until ENDED,
/// unless the same step gives another `playWhenReadyChangeReason` (audio focus loss, noisy
/// output…): then, as upstream, it arms nothing. `stop` and `release` (the app's calls) are a
/// Stop; an error's IDLE is not. Media item transitions, suppression, the downstream format,
/// dropped frames and load errors feed the KPIs' state history, not the hub.
/// `contentPosition` moves with virtual time at 1× while the player plays, i.e. while the
/// playback state is READY and playWhenReady is true (ExoPlayer's `isPlaying`).
open class ExoPlayerTracker: ScriptableTracker {
    /// ExoPlaybackException types and the `errorType` upstream reports for them.
    static let errorTypes = [
        "REMOTE": "remote", "RENDERER": "renderer", "SOURCE": "source", "UNEXPECTED": "unexpected",
    ]

    /// `"message"`, or `{"message": …, "type": "SOURCE", "errorCode": 2001}` with optional type and code.
    static let playerErrorRule = ObservationRule.string.or(
        .object(
            ["message": .string, "type": .oneOf(errorTypes.keys.sorted()), "errorCode": .integer],
            required: ["message"],
            expected: ""),
        expected:
            "a message string or {\"message\": string, \"type\": \"REMOTE\" | \"RENDERER\" | \"SOURCE\" | \"UNEXPECTED\", "
            + "\"errorCode\": integer} (type and errorCode optional)")

    private static let rules: [String: ObservationRule] = [
        "playbackState": .oneOf(["IDLE", "BUFFERING", "READY", "ENDED"]),
        "playWhenReady": .bool,
        "seekStarted": .trueSignal,
        "playerError": playerErrorRule,
        "contentPosition": ObservationRule.nonNegativeNumber.orNull,
        "duration": ObservationRule.nonNegativeNumber.orNull,
        "videoSize": .size,
        "volume": .unitInterval,
        "frameRate": ObservationRule.nonNegativeNumber.orNull,
        "bandwidthEstimate": ObservationRule.nonNegativeInteger.orNull,
        "playWhenReadyChangeReason": .oneOf(playWhenReadyReasons),
        "playbackSuppressionReason": .oneOf([
            "NONE", "TRANSIENT_AUDIO_FOCUS_LOSS", "UNSUITABLE_AUDIO_OUTPUT", "SCRUBBING",
        ]),
        "mediaItemTransition": .oneOf(["AUTO", "SEEK", "PLAYLIST_CHANGED", "REPEAT"]),
        "downstreamFormat": .object(
            ["height": .nonNegativeInteger, "width": .nonNegativeInteger, "bitrate": .nonNegativeInteger],
            required: [], expected: "{\"height\": integer, \"width\": integer, \"bitrate\": integer} (each optional)"),
        "droppedFrames": .nonNegativeInteger,
        "loadError": .string,
        "stop": .trueSignal,
        "release": .trueSignal,
        // Read by the KPIs' state history only: the recording begins mid-playback.
        MidSession.key: MidSession.rule,
    ]

    /// `Player.PLAY_WHEN_READY_CHANGE_REASON_*` names.
    static let playWhenReadyReasons = [
        "USER_REQUEST", "AUDIO_FOCUS_LOSS", "AUDIO_BECOMING_NOISY", "REMOTE", "END_OF_MEDIA_ITEM",
        "SUPPRESSED_TOO_LONG",
    ]

    open override class var observationRules: [String: ObservationRule] { rules }

    // The player as last observed. Times in ms.
    private var playbackState = "IDLE"
    private var playWhenReady = false
    private var playhead = Playhead()
    private var duration: Double?
    private var videoSize: (width: Double, height: Double)?
    private var volume: Double?
    private var frameRate: Double?
    private var bandwidthEstimate: Int?

    // The tracker's own memory.
    /// A play request from the user was seen since the last ENDED.
    private var userRequested = false
    /// The error of the last `playerError`, for the Error event.
    private var lastError: (message: String, type: String?, code: Int?)?
    private var resolution = ResolutionWatch()
    /// The step's `playWhenReadyChangeReason`; nil counts as a user request.
    private var changeReason: String?

    // MARK: Getters

    open override func playerReady(_ instrument: Instrument) {
        registerPlayerGetter(.trackerTarget, instrument) { .string("ExoPlayer") }
        registerPlayerGetter(.position, instrument, reading: self) { tracker in
            tracker.playhead.position(at: tracker.virtualNow).flatMap(truncatedInt).map(AttributeValue.int)
        }
        registerPlayerGetter(.duration, instrument, reading: self) {
            $0.duration.flatMap(truncatedInt).map(AttributeValue.int)
        }
        registerPlayerGetter(.resolutionHeight, instrument, reading: self) { tracker in
            tracker.videoSize.flatMap { truncatedInt($0.height) }.map(AttributeValue.int)
        }
        registerPlayerGetter(.resolutionWidth, instrument, reading: self) { tracker in
            tracker.videoSize.flatMap { truncatedInt($0.width) }.map(AttributeValue.int)
        }
        registerPlayerGetter(.isMuted, instrument, reading: self) { tracker in tracker.volume.map { .bool($0 == 0) } }
        // A Float from 0 to 1, as on Android (not upstream iOS's Int 0–100).
        registerPlayerGetter(.volume, instrument, reading: self) { $0.volume.map(AttributeValue.double) }
        registerPlayerGetter(.fps, instrument, reading: self) { $0.frameRate.map(AttributeValue.double) }
        registerPlayerGetter(.bitrate, instrument, reading: self) { $0.bandwidthEstimate.map(AttributeValue.int) }
    }

    // MARK: Observations

    /// The reason of a playWhenReady change comes with it (one listener call): read it first.
    open override func observe(step observations: [Observation]) {
        let reason = observations.last { $0.name == .playWhenReadyChangeReason }
        changeReason = reason.flatMap { PlayerValue.string($0.value) }
        defer { changeReason = nil }
        for observation in observations where observation.name != .playWhenReadyChangeReason { observe(observation) }
    }

    open override func observe(_ observation: Observation) {
        let value = observation.value
        switch observation.name {
        case .playbackState:
            playbackState = PlayerValue.string(value) ?? playbackState
            updatePlayheadSpeed()
            switch playbackState {
            case "BUFFERING":
                emit(.streamLoad)
                emit(.bufferBegin)
            case "READY":
                emit(.bufferFinish)
                if userRequested { emit(.start) }
                if state.isSeeking { emit(.seekFinish) }
            case "ENDED":
                emit(.end)
                userRequested = false
            default:
                break  // IDLE: nothing
            }
        case .playWhenReady:
            playWhenReady = PlayerValue.bool(value) ?? playWhenReady
            let byUser = changeReason == nil || changeReason == "USER_REQUEST"
            if byUser { userRequested = true }
            updatePlayheadSpeed()
            if playWhenReady {
                if byUser, state.didStreamLoad { emit(.start) }
                emit(.pauseFinish)
            } else {
                emit(.pauseBegin)
            }
        case .seekStarted:
            emit(.seekBegin)
        case .playerError:
            if let message = PlayerValue.string(value) {
                lastError = (message, nil, nil)
            } else {
                lastError = (
                    PlayerValue.member("message", of: value).flatMap(PlayerValue.string) ?? "",
                    PlayerValue.member("type", of: value).flatMap(PlayerValue.string).flatMap { Self.errorTypes[$0] },
                    PlayerValue.member("errorCode", of: value).flatMap(PlayerValue.integer)
                )
            }
            emit(.error)
        case .contentPosition:
            playhead.set(PlayerValue.number(value), at: virtualNow)
        case .duration:
            duration = PlayerValue.number(value)
        case .videoSize:
            // onVideoSizeChanged: the new size, then upstream's resolution check.
            videoSize = PlayerValue.size(value)
            if let size = videoSize, let width = truncatedInt(size.width), let height = truncatedInt(size.height) {
                // Through a copy, as in AVPlayerTracker.checkResolutionChange.
                var watch = resolution
                let change = watch.check(width: width, height: height)
                resolution = watch
                if let change { emit(change) }
            }
        case .volume:
            volume = PlayerValue.number(value)
        case .frameRate:
            frameRate = PlayerValue.number(value)
        case .bandwidthEstimate:
            bandwidthEstimate = PlayerValue.integer(value)
        case .stop, .release:
            emit(.stop)
        default:
            break
        }
    }

    private func updatePlayheadSpeed() {
        playhead.setSpeed(playbackState == "READY" && playWhenReady ? 1 : 0, at: virtualNow)
    }

    // MARK: Events

    /// Gives an Error event the player's last error (description, and type and code where the player has them).
    open override func initEvent(_ event: consuming Event) -> Event? {
        guard var event = super.initEvent(event) else { return nil }
        if event.action == .error {
            if let lastError {
                event[.errorDescription] = .string(lastError.message)
                if let type = lastError.type { event[PlayerAttribute.errorType] = .string(type) }
                if let code = lastError.code { event[PlayerAttribute.errorCode] = .int(code) }
            }
            lastError = nil
        }
        return event
    }
}
