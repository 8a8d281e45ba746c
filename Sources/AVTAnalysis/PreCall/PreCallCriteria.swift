import AVTTrackers

/// Everything that decides a pre-call verdict: the windows, when the test ends, the thresholds and
/// the sample's quirks. Times in ms, bandwidths in kbps (1 kbps = 1000 bps), losses in percent.
package struct PreCallCriteria: Sendable, Equatable {
    /// A window closes at the first sample at least this long after the previous window.
    package var windowLength = 3000
    /// The verdict is taken at this virtual time (t = 0 is when the subscriber connected).
    package var duration = 10_000
    package var videoKbps: Double = 50
    package var videoLossPercent: Double = 3
    package var audioKbps: Double = 25
    package var audioLossPercent: Double = 5
    /// When neither check passes: how long the sample stops video and keeps measuring audio
    /// before checking audio alone again; 0 for no retest.
    package var audioRetest = 0
    /// The sample's `loss ≤ threshold` with loss −1 for unknown: an unknown loss passes.
    package var unknownLossPasses = false
    /// The sample decides audio-video on video alone: a failing audio check is ignored.
    package var videoAloneSuffices = false
    package var arithmetic = NetStatsWindower.Arithmetic.exact

    package init() {}

    package init(profile: PreCallProfile) {
        switch profile {
        case .standard:
            break
        case .openTokSample:
            videoKbps = 150  // canDoVideo = video_bw ≥ 150000 …
            audioRetest = 6000  // AUDIO_ONLY_TEST_DURATION = 6 s
            unknownLossPasses = true  // video_pl_ratio = −1 ≤ 0.03
            videoAloneSuffices = true  // only ¬video ∧ audio is VoiceOnly; any passing video is VideoAndVoice
            arithmetic = .openTokSample
        }
    }
}
