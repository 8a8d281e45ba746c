/// The height and bitrate of a video format, either unknown (PlaybackStats' `Format.NO_VALUE`).
struct VideoFormat: Sendable, Equatable {
    var height: Int?
    var bitrate: Int?
}
