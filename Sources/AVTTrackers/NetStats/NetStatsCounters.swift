import AVTJSON

/// A snapshot of a subscriber's cumulative audio and video statistics: the six observation keys
/// of a `netstats` tracker. A step that omits a key keeps that counter's previous value; a counter
/// never given is 0.
package struct NetStatsCounters: Sendable, Equatable {
    package var video = MediaCounters()
    package var audio = MediaCounters()

    package init(video: MediaCounters = MediaCounters(), audio: MediaCounters = MediaCounters()) {
        self.video = video
        self.audio = audio
    }

    /// The observation keys, named as OpenTok's OTSubscriberKit{Video,Audio}NetworkStats.
    package static let keys = [
        "videoBytesReceived", "videoPacketsReceived", "videoPacketsLost",
        "audioBytesReceived", "audioPacketsReceived", "audioPacketsLost",
    ]

    /// Every key takes an integer ≥ 0 (cumulative counts have no fractions and no sign).
    package static let observationRules: [String: ObservationRule] = Dictionary(
        uniqueKeysWithValues: keys.map { ($0, ObservationRule.nonNegativeInteger) })

    /// Sets the counter an observation names (already checked against `observationRules`).
    package mutating func apply(_ observation: Observation) {
        guard let value = PlayerValue.integer(observation.value) else { return }
        switch observation.key {
        case "videoBytesReceived": video.bytesReceived = value
        case "videoPacketsReceived": video.packetsReceived = value
        case "videoPacketsLost": video.packetsLost = value
        case "audioBytesReceived": audio.bytesReceived = value
        case "audioPacketsReceived": audio.packetsReceived = value
        case "audioPacketsLost": audio.packetsLost = value
        default: break
        }
    }

    /// Whether any of the six counters is smaller than in `earlier`.
    package func wentBackwards(since earlier: NetStatsCounters) -> Bool {
        video.wentBackwards(since: earlier.video) || audio.wentBackwards(since: earlier.audio)
    }
}
