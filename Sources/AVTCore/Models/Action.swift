/// What happened: the name of an event plus the attribute that carries "time since the last
/// delivered event of this action". Equality is by name only, so a custom action named `Start`
/// behaves as the built-in `Start`.
public struct Action: Hashable, Sendable, CustomStringConvertible {
    private static let table = NameTable()

    /// The interned name: hubs switch over actions on every event, so equality is an integer
    /// compare. Dense (0, 1, …) and stable for the life of the process, so encoders can cache
    /// per-action data in arrays.
    public let index: Int32
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

    public var name: String { Self.table.name(of: index) }
    public static func == (lhs: Action, rhs: Action) -> Bool { lhs.index == rhs.index }
    public func hash(into hasher: inout Hasher) { hasher.combine(index) }
    public var description: String { name }

    /// The names of actions with index ≥ `start`, in index order.
    public static func names(fromIndex start: Int) -> [String] { table.names(from: start) }
}

extension Action {
    public static let trackerInit = Action("TrackerInit")
    public static let mediaRequest = Action("MediaRequest")
    public static let playerSet = Action("PlayerSet")
    public static let playerReady = Action("PlayerReady")
    public static let prepareItem = Action("PrepareItem")
    public static let manifestLoad = Action("ManifestLoad")
    public static let streamLoad = Action("StreamLoad")
    public static let start = Action("Start")
    public static let bufferBegin = Action("BufferBegin")
    public static let bufferFinish = Action("BufferFinish")
    public static let seekBegin = Action("SeekBegin")
    public static let seekFinish = Action("SeekFinish")
    public static let pauseBegin = Action("PauseBegin")
    public static let pauseFinish = Action("PauseFinish")
    public static let forwardBegin = Action("ForwardBegin")
    public static let forwardFinish = Action("ForwardFinish")
    public static let rewindBegin = Action("RewindBegin")
    public static let rewindFinish = Action("RewindFinish")
    public static let qualityChangeUp = Action("QualityChangeUp")
    public static let qualityChangeDown = Action("QualityChangeDown")
    public static let stop = Action("Stop")
    public static let end = Action("End")
    public static let next = Action("Next")
    public static let error = Action("Error")
    public static let ping = Action("Ping")
    public static let adBreakBegin = Action("AdBreakBegin")
    public static let adBreakFinish = Action("AdBreakFinish")
    public static let adBegin = Action("AdBegin")
    public static let adFinish = Action("AdFinish")
    public static let adPauseBegin = Action("AdPauseBegin")
    public static let adPauseFinish = Action("AdPauseFinish")
    public static let adBufferBegin = Action("AdBufferBegin")
    public static let adBufferFinish = Action("AdBufferFinish")
    public static let adSkip = Action("AdSkip")
    public static let adClick = Action("AdClick")
    public static let adFirstQuartile = Action("AdFirstQuartile")
    public static let adSecondQuartile = Action("AdSecondQuartile")
    public static let adThirdQuartile = Action("AdThirdQuartile")
    public static let adError = Action("AdError")

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
