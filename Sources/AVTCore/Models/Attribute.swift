/// The name of an event attribute. Wire names are lowerCamelCase; equality is by name, so a custom
/// attribute spelled like a built-in one *is* the built-in one. Names are interned: equality and
/// hashing cost an integer comparison.
public struct Attribute: Hashable, Comparable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    static let table = NameTable(seeded: builtinNames)

    /// The interned index of the name: dense (0, 1, …) and stable for the life of the process,
    /// so encoders can keep per-attribute caches in arrays.
    public let index: Int32

    /// The attribute with this wire name; a name that is not built in makes a custom attribute.
    public init(_ name: String) { self.index = Self.table.id(for: name) }
    @usableFromInline init(index: Int32) { self.index = index }
    /// The attribute with this wire name, so a string literal can stand for an attribute.
    public init(stringLiteral name: String) { self.init(name) }

    /// Whether the name is one of the built-in ones (at the fixed indexes below the first custom one).
    var isBuiltin: Bool { index < Self.builtinCount }
    static let builtinCount = Int32(BuiltinAttribute.allCases.count)

    /// The wire name, such as `playbackId`.
    public var name: String { Self.table.name(of: index) }
    /// The wire name.
    public var description: String { name }
    /// Orders attributes by name, not by index.
    public static func < (lhs: Attribute, rhs: Attribute) -> Bool { lhs.name < rhs.name }

    /// The names of attributes with index ≥ `start`, in index order.
    public static func names(fromIndex start: Int) -> [String] { table.names(from: start) }
}

extension Attribute {
    // Set by the instrument.
    /// Who sent the event, `<instrumentId>-<trackerId>`: a string the instrument puts on every
    /// event.
    public static let senderId = Attribute(.senderId)
    // Set by trackers (getters or initEvent).
    /// The name of the tracked player (`AVPlayer`, `IMA`, …), a string from the tracker.
    public static let trackerTarget = Attribute(.trackerTarget)
    /// The error text of an Error or AdError event, a string from the tracker.
    public static let errorDescription = Attribute(.errorDescription)
    /// The content playhead in milliseconds, from a tracker getter; HubCoreAds copies the content
    /// trackers' position onto every event it lets through.
    public static let position = Attribute(.position)
    /// The length of the content in milliseconds, from a tracker getter.
    public static let duration = Attribute(.duration)
    /// The height in pixels of the rendition playing, an integer from the tracker.
    public static let resolutionHeight = Attribute(.resolutionHeight)
    /// The width in pixels of the rendition playing, an integer from the tracker.
    public static let resolutionWidth = Attribute(.resolutionWidth)
    /// Whether the player is muted, a boolean from the tracker.
    public static let isMuted = Attribute(.isMuted)
    /// The player's volume, from the tracker; most trackers report an integer percentage from 0 to
    /// 100.
    public static let volume = Attribute(.volume)
    /// The frame rate in frames per second, a double from the tracker.
    public static let fps = Attribute(.fps)
    /// The URL of the content playing, a string from the tracker.
    public static let source = Attribute(.source)
    /// The bitrate of the rendition playing in bits per second, an integer from the tracker.
    public static let bitrate = Attribute(.bitrate)
    /// The language of the track playing, a string from the tracker.
    public static let language = Attribute(.language)
    /// The subtitle track shown, a string from the tracker.
    public static let subtitles = Attribute(.subtitles)
    /// The title of the content, a string from the tracker.
    public static let title = Attribute(.title)
    /// Whether the tracker tracks ads rather than content, a boolean getter; HubCoreAds reads it to
    /// find the content trackers whose `position` it copies.
    public static let isAdsTracker = Attribute(.isAdsTracker)
    // Set by HubCore.
    /// A string id the hub creates on each accepted StreamLoad and stamps on every accepted event
    /// from then on; absent before the first.
    public static let streamId = Attribute(.streamId)
    /// A string id for the current playback, created by the hub when the first MediaRequest or
    /// StreamLoad reaches it and replaced after each accepted End, Stop or Next (which still
    /// carries the old one).
    public static let playbackId = Attribute(.playbackId)
    /// How many Error events the hub has accepted, this one included; an integer shared by all
    /// trackers.
    public static let countErrors = Attribute(.countErrors)
    /// How many Start events the hub has accepted, this one included; an integer shared by all
    /// trackers.
    public static let countStarts = Attribute(.countStarts)
    /// Total milliseconds paused: the hub adds `timeSincePauseBegin` on each accepted PauseFinish;
    /// shared by all trackers and never reset.
    public static let accumPauseTime = Attribute(.accumPauseTime)
    /// Total milliseconds buffering: the hub adds `timeSinceBufferBegin` on each accepted
    /// BufferFinish; shared by all trackers and never reset.
    public static let accumBufferTime = Attribute(.accumBufferTime)
    /// Total milliseconds seeking: the hub adds `timeSinceSeekBegin` on each accepted SeekFinish;
    /// shared by all trackers and never reset.
    public static let accumSeekTime = Attribute(.accumSeekTime)
    /// Declared upstream but never set by any hub; kept so custom hubs can use the name.
    public static let accumPlayTime = Attribute(.accumPlayTime)
    /// Milliseconds since the hub's last accepted event of any tracker, set by the hub on events
    /// that arrive while the tracker is started and not paused, seeking or buffering; MetricalcCore
    /// reports it as `PlayTime`.
    public static let deltaPlayTime = Attribute(.deltaPlayTime)
    /// Whether the emitting tracker is paused after this event (on BufferFinish: whether its buffer
    /// began in a pause); a boolean the hub stamps.
    public static let inPauseBlock = Attribute(.inPauseBlock)
    /// Whether the emitting tracker is seeking after this event (on BufferFinish: whether its
    /// buffer began in a seek); a boolean the hub stamps.
    public static let inSeekBlock = Attribute(.inSeekBlock)
    /// Whether the emitting tracker is buffering after this event; a boolean the hub stamps.
    public static let inBufferBlock = Attribute(.inBufferBlock)
    /// Whether the emitting tracker is started and not finished after this event; a boolean the hub
    /// stamps.
    public static let inPlaybackBlock = Attribute(.inPlaybackBlock)
    // Set by HubCoreAds.
    /// How many AdBegin events HubCoreAds has accepted, an integer it stamps on every event that
    /// passes its rules.
    public static let countAds = Attribute(.countAds)
    /// Whether the emitting tracker is inside an ad break, a boolean HubCoreAds stamps.
    public static let inAdBreakBlock = Attribute(.inAdBreakBlock)
    /// Whether the emitting tracker is inside an ad, a boolean HubCoreAds stamps.
    public static let inAdBlock = Attribute(.inAdBlock)
    // Set by ads trackers.
    /// The ad's playhead in milliseconds, from the ads tracker.
    public static let adPosition = Attribute(.adPosition)
    /// The ad's length in milliseconds, from the ads tracker.
    public static let adDuration = Attribute(.adDuration)
    /// How much of the ad is buffered, in milliseconds, from the ads tracker.
    public static let adBufferedTime = Attribute(.adBufferedTime)
    /// The ad's volume as an integer percentage from 0 to 100, from the ads tracker.
    public static let adVolume = Attribute(.adVolume)
    /// Where the ad sits in the content, `pre`, `mid` or `post`, a string from the ads tracker.
    public static let adRoll = Attribute(.adRoll)
    /// The ad's description, a string from the ads tracker.
    public static let adDescription = Attribute(.adDescription)
    /// The ad's id, a string from the ads tracker.
    public static let adId = Attribute(.adId)
    /// The ad's title, a string from the ads tracker.
    public static let adTitle = Attribute(.adTitle)
    /// The advertiser's name, a string from the ads tracker.
    public static let adAdvertiserName = Attribute(.adAdvertiserName)
    /// The id of the ad's creative, a string from the ads tracker.
    public static let adCreativeId = Attribute(.adCreativeId)
    /// The ad system that served the ad, a string from the ads tracker.
    public static let adSystem = Attribute(.adSystem)
    /// The ad media's bitrate, an integer passed on as the ads tracker reports it (IMA reports
    /// kbps).
    public static let adBitrate = Attribute(.adBitrate)
    /// The height in pixels of the ad media, an integer from the ads tracker.
    public static let adResolutionHeight = Attribute(.adResolutionHeight)
    /// The width in pixels of the ad media, an integer from the ads tracker.
    public static let adResolutionWidth = Attribute(.adResolutionWidth)
}
