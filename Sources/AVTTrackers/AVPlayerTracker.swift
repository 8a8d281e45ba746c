import AVTCore
import AVTJSON

/// OpenAVT-iOS's AVPlayer tracker driven by timeline observations.
///
/// - KVO `status`, `itemStatus` (currentItem.status), `timeControlStatus` and
///   `playbackBufferEmpty` and the item notifications map to actions as upstream.
/// - The periodic time observer is an instrument timer (slot 1, every 500 ms of virtual time)
///   that runs while `rate != 0`; it is re-anchored at every rate change. Its handler also runs
///   at once on every rate change and on `notification: timeJumped`, as AVFoundation calls the
///   block then.
/// - The playhead moves with virtual time at `rate` while the rate is non-zero and the player is
///   not waiting to play, so `position` is right on every event without a step per tick.
/// - Like `OAVTTrackerAVPlayer(player:)`, it never emits PlayerSet or PlayerReady.
open class AVPlayerTracker: ScriptableTracker {
    /// The instrument timer slot of the periodic time observer (slot 0 is the ping).
    static let timeObserverSlot = 1
    /// AVFoundation's interval in upstream: 0.5 s.
    static let timeObserverInterval = 500

    private static let rules: [String: ObservationRule] = [
        "status": .oneOf(["unknown", "readyToPlay", "failed"]),
        "itemStatus": .oneOf(["unknown", "readyToPlay", "failed"]),
        "timeControlStatus": .oneOf(["paused", "waitingToPlayAtSpecifiedRate", "playing"]),
        "rate": .number,
        "playbackBufferEmpty": .bool,
        "playbackBufferFull": .bool,
        "playbackLikelyToKeepUp": .bool,
        "reasonForWaitingToPlay": ObservationRule.string.orNull,
        "notification": .oneOf(["didPlayToEndTime", "failedToPlayToEndTime", "timeJumped"]),
        "error": ObservationRule.string.orNull,
        "currentTime": ObservationRule.nonNegativeNumber.orNull,
        "duration": ObservationRule.nonNegativeNumber.orNull,
        "presentationSize": .size,
        "volume": .unitInterval,
        "isMuted": .bool,
        "fps": ObservationRule.nonNegativeNumber.orNull,
        "source": ObservationRule.string.orNull,
        "observedBitrate": ObservationRule.nonNegativeNumber.orNull,
        "language": ObservationRule.string.orNull,
        "subtitles": ObservationRule.string.orNull,
        // Read by the KPIs' state history only: the access log's indicated bitrate and
        // dropped-frame total, and an error log entry (a non-fatal error).
        "indicatedBitrate": ObservationRule.nonNegativeNumber.orNull,
        "droppedVideoFrames": .nonNegativeInteger,
        "errorLogEvent": .string,
        // Read by the KPIs' state history only: the item's running totals of bytes transferred
        // and of active transfer time (ms), for the mean bandwidth.
        "bytesTransferred": .nonNegativeInteger,
        "transferDuration": .nonNegativeInteger,
        // Read by the KPIs' state history only: the recording begins mid-playback.
        MidSession.key: MidSession.rule,
        // The app is done with the player: the tracker's listeners go, as at endOfService.
        "release": .trueSignal,
    ]

    open override class var observationRules: [String: ObservationRule] { rules }

    // The player as last observed.
    private var rate: Double = 0
    private var waitingToPlay = false
    private var playhead = Playhead()
    private var duration: Double?
    private var presentationSize: (width: Double, height: Double)?
    private var volume: Double?
    private var isMuted: Bool?
    private var fps: Double?
    private var source: String?
    private var observedBitrate: Double?
    private var language: String?
    private var subtitles: String?
    /// The player's (or current item's) `error`, as last observed.
    private var playerError: String?

    // The tracker's own memory.
    /// The error captured when a failure was signalled; the next Error event takes it.
    private var lastError: String?
    /// Position when the periodic observer last emitted PauseBegin (for the seek heuristic).
    private var pauseBeginPosition: Int?
    private var resolution = ResolutionWatch()

    // MARK: Getters

    open override func playerReady(_ instrument: Instrument) {
        registerPlayerGetter(.trackerTarget, instrument) { .string("AVPlayer") }
        registerPlayerGetter(.position, instrument, reading: self) { $0.currentPosition.map(AttributeValue.int) }
        registerPlayerGetter(.duration, instrument, reading: self) {
            $0.duration.flatMap(truncatedInt).map(AttributeValue.int)
        }
        registerPlayerGetter(.resolutionHeight, instrument, reading: self) { tracker in
            tracker.presentationSize.flatMap { truncatedInt($0.height) }.map(AttributeValue.int)
        }
        registerPlayerGetter(.resolutionWidth, instrument, reading: self) { tracker in
            tracker.presentationSize.flatMap { truncatedInt($0.width) }.map(AttributeValue.int)
        }
        registerPlayerGetter(.isMuted, instrument, reading: self) { $0.isMuted.map(AttributeValue.bool) }
        registerPlayerGetter(.volume, instrument, reading: self) { tracker in
            tracker.volume.map { .int(percentVolume($0)) }
        }
        registerPlayerGetter(.fps, instrument, reading: self) { $0.fps.map(AttributeValue.double) }
        registerPlayerGetter(.source, instrument, reading: self) { $0.source.map(AttributeValue.string) }
        registerPlayerGetter(.bitrate, instrument, reading: self) { tracker in
            tracker.observedBitrate.flatMap(truncatedInt).map(AttributeValue.int)
        }
        registerPlayerGetter(.language, instrument, reading: self) { $0.language.map(AttributeValue.string) }
        registerPlayerGetter(.subtitles, instrument, reading: self) { $0.subtitles.map(AttributeValue.string) }
    }

    /// `currentItem.currentTime()` in ms, truncated as upstream.
    private var currentPosition: Int? {
        playhead.position(at: virtualNow).flatMap(truncatedInt)
    }

    // MARK: Observations

    open override func observe(_ observation: Observation) {
        let value = observation.value
        // The key was decoded once, when the observation was made (`Observation.name`). Keys
        // without a case below (playbackBufferFull, playbackLikelyToKeepUp,
        // reasonForWaitingToPlay) are observed upstream and only logged; the KPIs' keys are theirs.
        switch observation.name {
        case .status:
            switch PlayerValue.string(value) {
            case "readyToPlay": emit(.streamLoad)
            case "failed": fail()
            default: break
            }
        case .itemStatus:
            if PlayerValue.string(value) == "failed" { fail() }
        case .timeControlStatus:
            let status = PlayerValue.string(value)
            waitingToPlay = status == "waitingToPlayAtSpecifiedRate"
            updatePlayheadSpeed()
            // The waiting reason is only logged upstream.
            emit(waitingToPlay ? .bufferBegin : .bufferFinish)
        case .rate:
            changeRate(to: PlayerValue.number(value) ?? 0)
        case .playbackBufferEmpty:
            // Upstream's seek heuristic: the buffer (re)fills while paused at a later position.
            if state.isPaused, let position = currentPosition, let pausePosition = pauseBeginPosition,
                position > pausePosition
            {
                emit(.seekBegin)
            }
        case .notification:
            switch PlayerValue.string(value) {
            case "didPlayToEndTime":
                if !state.inAdBreak { emit(.end) }
            case "failedToPlayToEndTime":
                fail()
                if let trackerId { instrument?.stopPing(trackerId: trackerId) }
            case "timeJumped":
                timeObserverFired()
            default: break
            }
        case .error:
            playerError = PlayerValue.string(value)
        case .currentTime:
            playhead.set(PlayerValue.number(value), at: virtualNow)
        case .duration:
            duration = PlayerValue.number(value)
        case .presentationSize:
            presentationSize = PlayerValue.size(value)
        case .volume:
            volume = PlayerValue.number(value)
        case .isMuted:
            isMuted = PlayerValue.bool(value)
        case .fps:
            fps = PlayerValue.number(value)
        case .source:
            source = PlayerValue.string(value)
        case .observedBitrate:
            observedBitrate = PlayerValue.number(value)
        case .language:
            language = PlayerValue.string(value)
        case .subtitles:
            subtitles = PlayerValue.string(value)
        case .release:
            release()
        default: break
        }
    }

    /// A failure: keep the player's error for the Error event, then emit it.
    private func fail() {
        lastError = playerError
        emit(.error)
    }

    private func changeRate(to newRate: Double) {
        guard newRate != rate else { return }
        rate = newRate
        updatePlayheadSpeed()
        if let trackerId, let instrument {
            if rate == 0 {
                instrument.stopTimer(trackerId: trackerId, slot: Self.timeObserverSlot)
            } else {
                // Holds the tracker strongly, which makes no cycle (the tracker refers to the
                // instrument weakly) and spares each tick an unowned load.
                instrument.startTimer(
                    trackerId: trackerId, slot: Self.timeObserverSlot, interval: Self.timeObserverInterval
                ) { self.timeObserverFired() }
            }
        }
        // AVFoundation calls the periodic observer's block when the rate changes.
        timeObserverFired()
    }

    /// The app let the player go: its periodic time observer is removed with the other
    /// listeners (as at endOfService) and the playhead stops, with no action of its own; a
    /// player observed on this tracker later starts from rate 0.
    private func release() {
        if let trackerId { instrument?.stopTimer(trackerId: trackerId, slot: Self.timeObserverSlot) }
        rate = 0
        waitingToPlay = false
        updatePlayheadSpeed()
    }

    private func updatePlayheadSpeed() {
        playhead.setSpeed(waitingToPlay ? 0 : rate, at: virtualNow)
    }

    /// The periodic time observer's block.
    private func timeObserverFired() {
        checkResolutionChange()
        if rate == 1 {
            if !state.didStart { emit(.start) }
            if state.isSeeking { emit(.seekFinish) }
            if state.isPaused { emit(.pauseFinish) }
        } else if rate == 0 {
            if !state.isPaused {
                pauseBeginPosition = currentPosition
                emit(.pauseBegin)
            }
        }
        // Any other rate (fast forward, reverse): nothing, as upstream.
    }

    private func checkResolutionChange() {
        guard let size = presentationSize, let width = truncatedInt(size.width), let height = truncatedInt(size.height)
        else { return }
        // Through a copy: `check` builds an Action, whose lazily initialised statics are a call the
        // compiler cannot see through, and an in-place change spanning it keeps run-time
        // exclusivity checks on `resolution` (here on every tick of the time observer).
        var watch = resolution
        let change = watch.check(width: width, height: height)
        resolution = watch
        if let change { emit(change) }
    }

    // MARK: Events

    /// Gives an Error event the player's last error (description, and type and code where the player has them).
    open override func initEvent(_ event: consuming Event) -> Event? {
        guard var event = super.initEvent(event) else { return nil }
        if event.action == .error {
            if let lastError { event[.errorDescription] = .string(lastError) }
            lastError = nil
        }
        return event
    }

    /// Removes the periodic time observer, as upstream does with the other listeners.
    open override func endOfService() {
        // Upstream removes the periodic time observer with the other listeners.
        if let trackerId { instrument?.stopTimer(trackerId: trackerId, slot: Self.timeObserverSlot) }
        super.endOfService()
    }
}
