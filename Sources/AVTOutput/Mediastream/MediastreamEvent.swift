import AVTFormats
import AVTJSON

/// One event as Mediastream's analytics collector (MediastreamMetricsSDK) takes it: a name, the
/// four ids every event carries, and the fields of that event's structure. Durations and
/// positions are integer milliseconds, bitrates integer kbps.
package struct MediastreamEvent: Sendable, Equatable {
    package enum Name: String, Sendable, CaseIterable {
        case playerLoaded = "player_loaded"
        case play
        case pause
        case buffering
        case seek
        case playing
        case contentEnd = "content_end"

        /// The fields this event writes after the ids (written as `null` when unknown), so every
        /// line of one event name has the same keys.
        package var fields: [Field] {
            switch self {
            case .playerLoaded: return [.playerLoadingTime]
            case .play, .pause, .contentEnd: return [.position, .duration]
            case .buffering: return [.position, .duration, .bufferingTime]
            case .seek: return [.position, .fromPosition, .duration]
            case .playing:
                return [
                    .position, .duration, .relativeStreamedTime, .contentResolution, .contentVideoBitrate,
                    .contentAudioBitrate, .bandwith,
                ]
            }
        }
    }

    /// Event fields in the order every line writes them.
    package enum Field: String, Sendable, CaseIterable {
        case position
        case fromPosition = "from_position"
        case duration
        case bufferingTime = "buffering_time"
        case relativeStreamedTime = "relative_streamed_time"
        case contentResolution = "content_resolution"
        case contentVideoBitrate = "content_video_bitrate"
        case contentAudioBitrate = "content_audio_bitrate"
        /// Mediastream's own spelling.
        case bandwith
        case playerLoadingTime = "player_loading_time"
    }

    package var name: Name
    /// Virtual milliseconds since t=0 (not written; `timestamp` is).
    package var t: Int
    /// Epoch milliseconds: the timeline's startTime + t.
    package var timestamp: Int
    package var contentId: String?
    package var playbackId: String?
    package var uniqueId: String?
    package var sessionId: String?
    package var position: Int?
    package var fromPosition: Int?
    package var duration: Int?
    package var bufferingTime: Int?
    package var relativeStreamedTime: Int?
    package var contentResolution: String?
    package var contentVideoBitrate: Int?
    package var contentAudioBitrate: Int?
    package var bandwith: Int?
    package var playerLoadingTime: Int?

    package init(_ name: Name, t: Int, timestamp: Int) {
        self.name = name
        self.t = t
        self.timestamp = timestamp
    }

    /// The JSON object, without a newline: `event`, `timestamp` (ISO-8601 UTC with
    /// milliseconds), `content_id`, `playback_id`, `unique_id`, `session_id`, then the event's
    /// fields in `Field` order. Unknown values are `null`.
    package var json: String {
        var w = JSONWriter(capacity: 384)
        w.raw("{\"event\":")
        w.string(name.rawValue)
        w.raw(",\"timestamp\":")
        w.string(ISO8601.format(epochMilliseconds: timestamp))
        for (key, value) in [
            ("content_id", contentId), ("playback_id", playbackId), ("unique_id", uniqueId), ("session_id", sessionId),
        ] {
            w.raw(",\"")
            w.bytes.append(contentsOf: key.utf8)
            w.raw("\":")
            if let value { w.string(value) } else { w.null() }
        }
        let own = name.fields
        for field in Field.allCases where own.contains(field) {
            w.raw(",\"")
            w.bytes.append(contentsOf: field.rawValue.utf8)
            w.raw("\":")
            if field == .contentResolution {
                if let contentResolution { w.string(contentResolution) } else { w.null() }
            } else if let value = integer(field) {
                w.int(value)
            } else {
                w.null()
            }
        }
        w.raw("}")
        return String(decoding: w.bytes, as: UTF8.self)
    }

    private func integer(_ field: Field) -> Int? {
        switch field {
        case .position: return position
        case .fromPosition: return fromPosition
        case .duration: return duration
        case .bufferingTime: return bufferingTime
        case .relativeStreamedTime: return relativeStreamedTime
        case .contentVideoBitrate: return contentVideoBitrate
        case .contentAudioBitrate: return contentAudioBitrate
        case .bandwith: return bandwith
        case .playerLoadingTime: return playerLoadingTime
        case .contentResolution: return nil
        }
    }
}
