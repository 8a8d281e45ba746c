/// A playback's video format over time, as `PlaybackStatsTracker` keeps it: the current format,
/// the first known height and bitrate, and the time PLAYING at each known height and bitrate
/// (`maybeRecordVideoFormatTime`, at speed 1). A playback begins with no format.
package struct FormatTimes: Sendable {
    package private(set) var format: VideoFormat?
    private var lastT: Int
    private(set) var heightTime = 0, heightProduct = 0
    private(set) var bitrateTime = 0, bitrateProduct = 0
    package private(set) var initialHeight: Int?
    package private(set) var initialBitrate: Int?

    init(begin: Int) { lastT = begin }

    /// `maybeUpdateVideoFormat`: the time at the old format is banked first. Returns whether the
    /// format changed.
    @discardableResult
    mutating func change(to new: VideoFormat, at t: Int, playing: Bool) -> Bool {
        guard new != format else { return false }
        record(at: max(t, lastT), playing: playing)
        if initialHeight == nil { initialHeight = new.height }
        if initialBitrate == nil { initialBitrate = new.bitrate }
        format = new
        return true
    }

    /// `maybeRecordVideoFormatTime`: time PLAYING at a known height (bitrate) weighs it.
    mutating func record(at t: Int, playing: Bool) {
        if playing, let format {
            let media = t - lastT
            if let height = format.height {
                heightTime = heightTime.saturatingAdding(media)
                heightProduct = heightProduct.saturatingAdding(media.saturatingMultiplied(by: height))
            }
            if let bitrate = format.bitrate {
                bitrateTime = bitrateTime.saturatingAdding(media)
                bitrateProduct = bitrateProduct.saturatingAdding(media.saturatingMultiplied(by: bitrate))
            }
        }
        lastT = t
    }
}
