/// What happened: the name of an event plus the attribute that carries "time since the last
/// delivered event of this action". Equality is by name only, so a custom action named `Start`
/// behaves as the built-in `Start`.
public struct Action: Hashable, Sendable, CustomStringConvertible {
    private static let table = NameTable(seeded: builtinNames)

    /// The interned name: hubs switch over actions on every event, so equality is an integer
    /// compare. Dense (0, 1, …) and stable for the life of the process, so encoders can cache
    /// per-action data in arrays.
    public let index: Int32
    /// The attribute that carries, on every later event, the milliseconds since the last event of
    /// this action reached the backend (`timeSince<Name>` unless chosen otherwise).
    public let timeAttribute: Attribute

    /// A custom (or built-in) action whose time attribute is `timeSince<name>`.
    public init(_ name: String) {
        self.init(name, timeAttribute: Attribute("timeSince" + name))
    }

    /// A custom action with a time attribute of its own choosing.
    public init(_ name: String, timeAttribute: Attribute) {
        self.index = Self.table.id(for: name)
        self.timeAttribute = timeAttribute
    }

    @usableFromInline init(index: Int32, timeAttribute: Attribute) {
        self.index = index
        self.timeAttribute = timeAttribute
    }

    /// The wire name, such as `Start` or `MediaRequest`.
    public var name: String { Self.table.name(of: index) }
    /// Two actions are equal when their names are, whatever their time attributes.
    public static func == (lhs: Action, rhs: Action) -> Bool { lhs.index == rhs.index }
    /// Hashes the interned name, consistently with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(index) }
    /// The wire name.
    public var description: String { name }

    /// The names of actions with index ≥ `start`, in index order.
    public static func names(fromIndex start: Int) -> [String] { table.names(from: start) }
}

extension Action {
    /// The tracker was set up; trackers emit it once, and the hub always accepts it.
    public static let trackerInit = Action(.trackerInit)
    /// The app asked for a media item; the hub accepts only the first on each tracker, for its
    /// whole lifetime, and the first one to reach the hub (even rejected) creates the `playbackId`
    /// if there is none.
    public static let mediaRequest = Action(.mediaRequest)
    /// A player was attached to the tracker; the hub accepts only the first on each tracker, for
    /// its whole lifetime.
    public static let playerSet = Action(.playerSet)
    /// The player is ready to play; the hub always accepts it, with no state change.
    public static let playerReady = Action(.playerReady)
    /// The player is preparing a media item; the hub always accepts it, with no state change.
    public static let prepareItem = Action(.prepareItem)
    /// The stream's manifest was loaded; the hub always accepts it, with no state change.
    public static let manifestLoad = Action(.manifestLoad)
    /// The stream started loading; the hub accepts only the first on each tracker, gives it a new
    /// hub-global `streamId`, and creates the `playbackId` if there is none.
    public static let streamLoad = Action(.streamLoad)
    /// The player showed the first frame of the content; the hub accepts it once per playback,
    /// counts it in `countStarts` and starts the tracker's ping timer, and from then on the
    /// tracker's events carry `deltaPlayTime` while it is not paused, seeking or buffering.
    public static let start = Action(.start)
    /// The player stalled to fill its buffer; the hub accepts it when the tracker is not already
    /// buffering (no Start needed) and remembers whether it began inside a pause or a seek.
    public static let bufferBegin = Action(.bufferBegin)
    /// The stall ended; the hub accepts it while buffering and adds `timeSinceBufferBegin` to
    /// `accumBufferTime`, and MetricalcCore counts a rebuffer if it happened in playback outside a
    /// pause or seek.
    public static let bufferFinish = Action(.bufferFinish)
    /// A seek started; the hub accepts it when the tracker is not already seeking (no Start
    /// needed).
    public static let seekBegin = Action(.seekBegin)
    /// The seek completed; the hub accepts it while seeking and adds `timeSinceSeekBegin` to
    /// `accumSeekTime`.
    public static let seekFinish = Action(.seekFinish)
    /// Playback paused; the hub accepts it after Start when the tracker is not already paused.
    public static let pauseBegin = Action(.pauseBegin)
    /// Playback resumed from a pause; the hub accepts it while paused and adds
    /// `timeSincePauseBegin` to `accumPauseTime`.
    public static let pauseFinish = Action(.pauseFinish)
    /// Fast-forward started; the hub always accepts it, with no state change.
    public static let forwardBegin = Action(.forwardBegin)
    /// Fast-forward ended; the hub always accepts it, with no state change.
    public static let forwardFinish = Action(.forwardFinish)
    /// Rewind started; the hub always accepts it, with no state change.
    public static let rewindBegin = Action(.rewindBegin)
    /// Rewind ended; the hub always accepts it, with no state change.
    public static let rewindFinish = Action(.rewindFinish)
    /// The player switched to a higher-quality rendition; the hub always accepts it, with no state
    /// change.
    public static let qualityChangeUp = Action(.qualityChangeUp)
    /// The player switched to a lower-quality rendition; the hub always accepts it, with no state
    /// change.
    public static let qualityChangeDown = Action(.qualityChangeDown)
    /// Playback was stopped; the hub accepts it when started and not finished, stops the tracker's
    /// ping timer, ends the playback and then creates a new `playbackId`.
    public static let stop = Action(.stop)
    /// The content played to its end; the hub treats it as `stop`, except that HubCoreAds rejects
    /// it inside an ad break.
    public static let end = Action(.end)
    /// The player moved on to the next item; the hub treats it as `stop`.
    public static let next = Action(.next)
    /// The player reported an error (its text in `errorDescription`); the hub always accepts it and
    /// increments `countErrors`, but it neither ends the playback nor stops pings.
    public static let error = Action(.error)
    /// A heartbeat emitted by the instrument's ping timer, every ping interval after the hub starts
    /// the timer (on Start, or AdBegin under HubCoreAds); the hub always accepts it.
    public static let ping = Action(.ping)
    /// A break of one or more ads began; HubCoreAds accepts it when not already in a break and sets
    /// `inAdBreak` on every tracker (HubCore alone accepts every ad action with no state change).
    public static let adBreakBegin = Action(.adBreakBegin)
    /// The ad break ended; HubCoreAds accepts it inside a break and clears `inAdBreak` on every
    /// tracker.
    public static let adBreakFinish = Action(.adBreakFinish)
    /// An ad started playing; HubCoreAds accepts it inside a break when no ad is playing, sets
    /// `inAd` on every tracker, increments `countAds` and starts the emitting tracker's ping timer.
    public static let adBegin = Action(.adBegin)
    /// The ad finished; HubCoreAds stops the emitting tracker's ping timer even when it rejects the
    /// event, and accepts it while an ad plays, clearing `inAd` on every tracker.
    public static let adFinish = Action(.adFinish)
    /// The ad paused; HubCoreAds accepts it while an ad plays and the emitting tracker is not
    /// paused, and sets that tracker's `isPaused`.
    public static let adPauseBegin = Action(.adPauseBegin)
    /// The ad resumed; HubCoreAds accepts it while an ad plays and the emitting tracker is paused,
    /// and clears that tracker's `isPaused`.
    public static let adPauseFinish = Action(.adPauseFinish)
    /// The ad stalled to fill its buffer; the hub always accepts it, with no state change.
    public static let adBufferBegin = Action(.adBufferBegin)
    /// The ad's stall ended; the hub always accepts it, with no state change.
    public static let adBufferFinish = Action(.adBufferFinish)
    /// The user skipped the ad; the hub always accepts it, but it does not clear `inAd`, so a skip
    /// with no AdFinish after it leaves the ad state set.
    public static let adSkip = Action(.adSkip)
    /// The user clicked or tapped the ad; the hub always accepts it, with no state change.
    public static let adClick = Action(.adClick)
    /// The ad played a quarter of its length; the hub always accepts it, with no state change.
    public static let adFirstQuartile = Action(.adFirstQuartile)
    /// The ad reached its midpoint; the hub always accepts it, with no state change.
    public static let adSecondQuartile = Action(.adSecondQuartile)
    /// The ad played three quarters of its length; the hub always accepts it, with no state change.
    public static let adThirdQuartile = Action(.adThirdQuartile)
    /// The ad failed (its text in `errorDescription`); the hub always accepts it, and unlike
    /// `error` it does not count in `countErrors`.
    public static let adError = Action(.adError)

    /// The 39 built-in actions in upstream's declaration order.
    public static let builtIn: [Action] = [
        .trackerInit, .mediaRequest, .playerSet, .playerReady, .prepareItem, .manifestLoad, .streamLoad,
        .start, .bufferBegin, .bufferFinish, .seekBegin, .seekFinish, .pauseBegin, .pauseFinish,
        .forwardBegin, .forwardFinish, .rewindBegin, .rewindFinish, .qualityChangeUp, .qualityChangeDown,
        .stop, .end, .next, .error, .ping, .adBreakBegin, .adBreakFinish, .adBegin, .adFinish,
        .adPauseBegin, .adPauseFinish, .adBufferBegin, .adBufferFinish, .adSkip, .adClick,
        .adFirstQuartile, .adSecondQuartile, .adThirdQuartile, .adError,
    ]
}
