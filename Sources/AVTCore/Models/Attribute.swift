/// The name of an event attribute. Wire names are lowerCamelCase; equality is by name, so a custom
/// attribute spelled like a built-in one *is* the built-in one. Names are interned: equality and
/// hashing cost an integer comparison.
public struct Attribute: Hashable, Comparable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    static let table = NameTable(seeded: builtinNames)

    /// The interned index of the name: dense (0, 1, …) and stable for the life of the process,
    /// so encoders can keep per-attribute caches in arrays.
    public let index: Int32

    public init(_ name: String) { self.index = Self.table.id(for: name) }
    @usableFromInline init(index: Int32) { self.index = index }
    public init(stringLiteral name: String) { self.init(name) }

    public var name: String { Self.table.name(of: index) }
    public var description: String { name }
    public static func < (lhs: Attribute, rhs: Attribute) -> Bool { lhs.name < rhs.name }

    /// The names of attributes with index ≥ `start`, in index order.
    public static func names(fromIndex start: Int) -> [String] { table.names(from: start) }
}

extension Attribute {
    // Set by the instrument.
    public static let senderId = Attribute(.senderId)
    // Set by trackers (getters or initEvent).
    public static let trackerTarget = Attribute(.trackerTarget)
    public static let errorDescription = Attribute(.errorDescription)
    public static let position = Attribute(.position)
    public static let duration = Attribute(.duration)
    public static let resolutionHeight = Attribute(.resolutionHeight)
    public static let resolutionWidth = Attribute(.resolutionWidth)
    public static let isMuted = Attribute(.isMuted)
    public static let volume = Attribute(.volume)
    public static let fps = Attribute(.fps)
    public static let source = Attribute(.source)
    public static let bitrate = Attribute(.bitrate)
    public static let language = Attribute(.language)
    public static let subtitles = Attribute(.subtitles)
    public static let title = Attribute(.title)
    public static let isAdsTracker = Attribute(.isAdsTracker)
    // Set by HubCore.
    public static let streamId = Attribute(.streamId)
    public static let playbackId = Attribute(.playbackId)
    public static let countErrors = Attribute(.countErrors)
    public static let countStarts = Attribute(.countStarts)
    public static let accumPauseTime = Attribute(.accumPauseTime)
    public static let accumBufferTime = Attribute(.accumBufferTime)
    public static let accumSeekTime = Attribute(.accumSeekTime)
    /// Declared upstream but never set by any hub; kept so custom hubs can use the name.
    public static let accumPlayTime = Attribute(.accumPlayTime)
    public static let deltaPlayTime = Attribute(.deltaPlayTime)
    public static let inPauseBlock = Attribute(.inPauseBlock)
    public static let inSeekBlock = Attribute(.inSeekBlock)
    public static let inBufferBlock = Attribute(.inBufferBlock)
    public static let inPlaybackBlock = Attribute(.inPlaybackBlock)
    // Set by HubCoreAds.
    public static let countAds = Attribute(.countAds)
    public static let inAdBreakBlock = Attribute(.inAdBreakBlock)
    public static let inAdBlock = Attribute(.inAdBlock)
    // Set by ads trackers.
    public static let adPosition = Attribute(.adPosition)
    public static let adDuration = Attribute(.adDuration)
    public static let adBufferedTime = Attribute(.adBufferedTime)
    public static let adVolume = Attribute(.adVolume)
    public static let adRoll = Attribute(.adRoll)
    public static let adDescription = Attribute(.adDescription)
    public static let adId = Attribute(.adId)
    public static let adTitle = Attribute(.adTitle)
    public static let adAdvertiserName = Attribute(.adAdvertiserName)
    public static let adCreativeId = Attribute(.adCreativeId)
    public static let adSystem = Attribute(.adSystem)
    public static let adBitrate = Attribute(.adBitrate)
    public static let adResolutionHeight = Attribute(.adResolutionHeight)
    public static let adResolutionWidth = Attribute(.adResolutionWidth)
}
