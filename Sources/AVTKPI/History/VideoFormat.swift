/// The height and bitrate of a video format, either unknown (PlaybackStats' `Format.NO_VALUE`).
package struct VideoFormat: Sendable, Equatable {
    package var height: Int?
    package var bitrate: Int?
}
