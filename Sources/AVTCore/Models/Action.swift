/// What happened: the name of an event plus the attribute that carries "time since the last
/// delivered event of this action". Equality is by name only, so a custom action named `Start`
/// behaves as the built-in `Start`.
public struct Action: Hashable, Sendable, CustomStringConvertible {
    private static let table = NameTable(seeded: builtinNames)

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

    @usableFromInline init(index: Int32, timeAttribute: Attribute) {
        self.index = index
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
    public static let trackerInit = Action(.trackerInit)
    public static let mediaRequest = Action(.mediaRequest)
    public static let playerSet = Action(.playerSet)
    public static let playerReady = Action(.playerReady)
    public static let prepareItem = Action(.prepareItem)
    public static let manifestLoad = Action(.manifestLoad)
    public static let streamLoad = Action(.streamLoad)
    public static let start = Action(.start)
    public static let bufferBegin = Action(.bufferBegin)
    public static let bufferFinish = Action(.bufferFinish)
    public static let seekBegin = Action(.seekBegin)
    public static let seekFinish = Action(.seekFinish)
    public static let pauseBegin = Action(.pauseBegin)
    public static let pauseFinish = Action(.pauseFinish)
    public static let forwardBegin = Action(.forwardBegin)
    public static let forwardFinish = Action(.forwardFinish)
    public static let rewindBegin = Action(.rewindBegin)
    public static let rewindFinish = Action(.rewindFinish)
    public static let qualityChangeUp = Action(.qualityChangeUp)
    public static let qualityChangeDown = Action(.qualityChangeDown)
    public static let stop = Action(.stop)
    public static let end = Action(.end)
    public static let next = Action(.next)
    public static let error = Action(.error)
    public static let ping = Action(.ping)
    public static let adBreakBegin = Action(.adBreakBegin)
    public static let adBreakFinish = Action(.adBreakFinish)
    public static let adBegin = Action(.adBegin)
    public static let adFinish = Action(.adFinish)
    public static let adPauseBegin = Action(.adPauseBegin)
    public static let adPauseFinish = Action(.adPauseFinish)
    public static let adBufferBegin = Action(.adBufferBegin)
    public static let adBufferFinish = Action(.adBufferFinish)
    public static let adSkip = Action(.adSkip)
    public static let adClick = Action(.adClick)
    public static let adFirstQuartile = Action(.adFirstQuartile)
    public static let adSecondQuartile = Action(.adSecondQuartile)
    public static let adThirdQuartile = Action(.adThirdQuartile)
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
