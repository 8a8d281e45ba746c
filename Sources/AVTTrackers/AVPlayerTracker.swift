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
open class AVPlayerTracker: ScriptableTracker, AttributeFields {
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

    /// The attributes the player's getters read, each a field of `attributeValue(field:)`.
    private enum Field: Int, CaseIterable {
        case position, duration, resolutionHeight, resolutionWidth, isMuted, volume, fps, source, bitrate, language
        case subtitles

        var attribute: Attribute {
            switch self {
            case .position: .position
            case .duration: .duration
            case .resolutionHeight: .resolutionHeight
            case .resolutionWidth: .resolutionWidth
            case .isMuted: .isMuted
            case .volume: .volume
            case .fps: .fps
            case .source: .source
            case .bitrate: .bitrate
            case .language: .language
            case .subtitles: .subtitles
            }
        }
    }

    open override func playerReady(_ instrument: Instrument) {
        instrument.registerGetter(.trackerTarget, AttributeGetter(constant: .string("AVPlayer")), tracker: self)
        // Fields of the tracker, not closures: every event reads all of them.
        for field in Field.allCases {
            instrument.registerGetter(field.attribute, AttributeGetter(field: field.rawValue, of: self), tracker: self)
        }
    }

    /// The value of a player getter (`Field`), as the player now reports it.
    public func attributeValue(field: Int) -> AttributeValue? {
        switch Field(rawValue: field) {
        case .position: currentPosition.map(AttributeValue.int)
        case .duration: duration.flatMap(truncatedInt).map(AttributeValue.int)
        case .resolutionHeight: presentationSize.flatMap { truncatedInt($0.height) }.map(AttributeValue.int)
        case .resolutionWidth: presentationSize.flatMap { truncatedInt($0.width) }.map(AttributeValue.int)
        case .isMuted: isMuted.map(AttributeValue.bool)
        case .volume: volume.map { .int(percentVolume($0)) }
        case .fps: fps.map(AttributeValue.double)
        case .source: source.map(AttributeValue.string)
        case .bitrate: observedBitrate.flatMap(truncatedInt).map(AttributeValue.int)
        case .language: language.map(AttributeValue.string)
        case .subtitles: subtitles.map(AttributeValue.string)
        case nil: nil
        }
    }

    /// `currentItem.currentTime()` in ms, truncated as upstream.
    private var currentPosition: Int? {
        playhead.position(at: virtualNow).flatMap(truncatedInt)
    }

    // MARK: Observations

    /// Takes the step's observations one at a time, in order, as every tracker does; this class's
    /// own are read in place: handed to the overridable `observe(_:)`, each was copied (its key
    /// and value retained and released), and every observation of an access log passes here.
    open override func observe(step observations: [Observation]) {
        guard type(of: self) == AVPlayerTracker.self else { return super.observe(step: observations) }
        for index in observations.indices { take(observations[index]) }
    }

    open override func observe(_ observation: Observation) {
        take(observation)
    }

    private func take(_ observation: Observation) {
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
            // The periodic observer's tick reads the rate and the presentation size; the rest of
            // what it reads is the state, whose changes wake it too (`ScriptableTracker.state`).
            wakeIdleTimer()
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
            wakeIdleTimer()
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
                ) { self.timeObserverTicked() }
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

    /// A tick of the periodic time observer. The block reads only the rate, the presentation
    /// size, the resolution baseline and the state: a tick that emitted nothing and kept the
    /// baseline is followed by ticks that do the same until an observation or the hub changes
    /// one of them, so the timer idles until then (`idleTimer(slot:)`; both wake it).
    private func timeObserverTicked() {
        if !timeObserverFired() { idleTimer(slot: Self.timeObserverSlot) }
    }

    /// The periodic time observer's block. Returns whether it did anything: emitted an action
    /// or moved the resolution baseline.
    @discardableResult
    private func timeObserverFired() -> Bool {
        var acted = checkResolutionChange()
        if rate == 1 {
            if !state.didStart {
                emit(.start)
                acted = true
            }
            if state.isSeeking {
                emit(.seekFinish)
                acted = true
            }
            if state.isPaused {
                emit(.pauseFinish)
                acted = true
            }
        } else if rate == 0 {
            if !state.isPaused {
                pauseBeginPosition = currentPosition
                emit(.pauseBegin)
                acted = true
            }
        }
        // Any other rate (fast forward, reverse): nothing, as upstream.
        return acted
    }

    /// Whether the check emitted a change or moved the baseline.
    private func checkResolutionChange() -> Bool {
        guard let size = presentationSize, let width = truncatedInt(size.width), let height = truncatedInt(size.height)
        else { return false }
        // Through a copy: `check` builds an Action, whose lazily initialised statics are a call the
        // compiler cannot see through, and an in-place change spanning it keeps run-time
        // exclusivity checks on `resolution` (here on every tick of the time observer).
        var watch = resolution
        let change = watch.check(width: width, height: height)
        let moved = watch != resolution
        resolution = watch
        if let change { emit(change) }
        return change != nil || moved
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
