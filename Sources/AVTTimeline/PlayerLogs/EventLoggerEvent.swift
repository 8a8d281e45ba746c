/// The events `EventLogger` has written in any version, as a table: what each is to the
/// reader. A name that is not here makes `NAME [` an ordinary line. A new era's event is a new
/// case here (with its traits below) and, when it means something to the tracker, a case of
/// the reader's mapping.
package enum EventLoggerEvent: String, CaseIterable, Sendable {
    case state, playWhenReady, isPlaying, playbackSuppressionReason, positionDiscontinuity, seekStarted
    case seekProcessed, mediaItem, playerFailed, internalError, renderedFirstFrame, videoSize
    case videoSizeChanged, downstreamFormat, downstreamFormatChanged, upstreamDiscarded, videoInputFormat
    case audioInputFormat, decoderInputFormat, decoderInputFormatChanged, droppedFrames, loading
    case audioEnabled, audioDisabled, videoEnabled, videoDisabled, decoderEnabled, decoderDisabled
    case decoderInitialized, audioDecoderInitialized, videoDecoderInitialized, audioDecoderReleased
    case videoDecoderReleased, audioTrackUnderrun, surfaceSize, volume, playbackParameters, rendererReady
    case audioPositionAdvancing, drmSessionAcquired, drmSessionReleased, drmKeysLoaded, drmKeysRestored
    case drmKeysRemoved, drmSessionManagerError, timeline, tracks, metadata, repeatMode, shuffleModeEnabled
    case audioSessionId, audioAttributes, skipSilenceEnabled, mediaPeriodCreated, mediaPeriodReleased
    case readingStarted, bandwidthEstimate, loadError, playerError, trackSelectionParameters
    case audioCodecError, videoCodecError, audioSinkError, videoFrameProcessingOffset, cues
    case playlistMetadata, mediaMetadata, deviceInfo, deviceVolume
    /// Up to r2.7, the timeline: `sourceInfo [periodCount=1, windowCount=1`, then `  period [3.12]`
    /// and `  window [3.12, true, false]` lines, then `]`.
    case sourceInfo

    /// Whether the mapping reads the event's details (the others are context, or counted).
    var isMapped: Bool {
        switch self {
        case .state, .playWhenReady, .isPlaying, .positionDiscontinuity, .seekStarted, .playerFailed,
            .internalError, .videoSize, .videoSizeChanged, .volume, .droppedFrames, .downstreamFormat,
            .downstreamFormatChanged, .mediaItem, .playbackSuppressionReason, .bandwidthEstimate:
            return true
        default:
            return false
        }
    }

    /// Whether the event's brackets may stay open over the next lines: a block (`timeline [`,
    /// `tracks [`, `metadata [`) or an error whose throwable follows.
    var opensBlock: Bool {
        switch self {
        case .timeline, .tracks, .metadata, .sourceInfo, .playerFailed, .internalError: return true
        default: return false
        }
    }

    /// Whether the block holds an error's throwable (the error is said when the block ends).
    var isError: Bool { self == .playerFailed || self == .internalError }

    /// For a timeline block, the start of its nested line whose first value is the media's
    /// duration in seconds: the first window (`  window [12.00, seekable=true, …]`), or up to
    /// r2.7 the first period (`  period [3.12]`).
    var durationLine: String? {
        switch self {
        case .timeline: return "window ["
        case .sourceInfo: return "period ["
        default: return nil
        }
    }

    /// Whether, up to r2.7, the event's only detail is its time (`seekProcessed [3.12]`).
    var isTimeOnlyInOldEras: Bool {
        self == .playerFailed || self == .seekStarted || self == .seekProcessed
    }

    /// The event named by `b[start..<end]`, compared by bytes: this runs for every line of a log.
    static func named(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> EventLoggerEvent? {
        let length = end - start
        guard length > 0, length < byLength.count else { return nil }
        for (bytes, event) in byLength[length] where bytes[0] == b[start] {
            var i = 1
            while i < length, bytes[i] == b[start + i] { i += 1 }
            if i == length { return event }
        }
        return nil
    }

    /// The names' bytes, grouped by length.
    private static let byLength: [[([UInt8], EventLoggerEvent)]] = {
        var table = [[([UInt8], EventLoggerEvent)]](repeating: [], count: 33)
        for event in allCases { table[event.rawValue.utf8.count].append((Array(event.rawValue.utf8), event)) }
        return table
    }()
}
