import AVTTimeline

/// Criteria given one by one (`precall --window`, `--video-kbps`, …), on top of a profile's.
package struct PreCallOverrides: Sendable, Equatable {
    package var windowLength: Int?
    package var duration: Int?
    package var videoKbps: Double?
    package var videoLossPercent: Double?
    package var audioKbps: Double?
    package var audioLossPercent: Double?
    package var audioRetest: Int?

    package init() {}

    /// The profile's criteria with the values given here instead.
    package func criteria(_ profile: PreCallProfile) -> PreCallCriteria {
        var criteria = PreCallCriteria(profile: profile)
        if let windowLength { criteria.windowLength = windowLength }
        if let duration { criteria.duration = duration }
        if let videoKbps { criteria.videoKbps = videoKbps }
        if let videoLossPercent { criteria.videoLossPercent = videoLossPercent }
        if let audioKbps { criteria.audioKbps = audioKbps }
        if let audioLossPercent { criteria.audioLossPercent = audioLossPercent }
        if let audioRetest { criteria.audioRetest = audioRetest }
        return criteria
    }

    /// Ranges the values must be in; the first one out of range is the error.
    package func validate() throws(UsageError) {
        if let windowLength, windowLength < 1 {
            throw UsageError("--window must be at least 1 ms, got \(windowLength)")
        }
        if let duration, duration < 0 { throw UsageError("--duration must be 0 ms or more, got \(duration)") }
        if let audioRetest, audioRetest < 0 {
            throw UsageError("--audio-retest must be 0 ms or more, got \(audioRetest)")
        }
        for (flag, value) in [("--video-kbps", videoKbps), ("--audio-kbps", audioKbps)] {
            if let value, !(value.isFinite && value >= 0) {
                throw UsageError("\(flag) must be a number of kbps >= 0, got \(value)")
            }
        }
        for (flag, value) in [("--video-loss", videoLossPercent), ("--audio-loss", audioLossPercent)] {
            if let value, !(value >= 0 && value <= 100) {
                throw UsageError("\(flag) must be a percentage from 0 to 100, got \(value)")
            }
        }
    }
}
