import AVTTrackers

/// A pre-call network test replayed: cumulative samples in, windows and a verdict out.
///
/// The verdict is taken at `duration` on the latest window closed at or before it (a window
/// closing exactly then counts):
/// - video passes when its bandwidth ≥ the video threshold and its loss ≤ the video loss
///   threshold; audio likewise with its own thresholds;
/// - audio-video when video passes and audio passes (or, with `videoAloneSuffices`, whatever
///   audio did); else audio-only when audio passes; else, with an `audioRetest`, audio-only if
///   audio passes on the latest window at `duration + audioRetest`; else neither.
/// Before the first window the values are the sample's initial ones: bandwidth 0, loss unknown.
package struct PreCallTest: Sendable {
    package let criteria: PreCallCriteria
    private var windower: NetStatsWindower
    private var counters = NetStatsCounters()
    package private(set) var windows: [NetStatsWindow] = []
    package private(set) var lastSampleT: Int?

    package init(criteria: PreCallCriteria) {
        self.criteria = criteria
        windower = NetStatsWindower(length: criteria.windowLength, arithmetic: criteria.arithmetic)
    }

    /// One sample: the observations of a step at `t` (keys not given keep their last value).
    package mutating func add(t: Int, observations: [Observation]) {
        for observation in observations { counters.apply(observation) }
        add(t: t, counters: counters)
    }

    package mutating func add(t: Int, counters: NetStatsCounters) {
        self.counters = counters
        lastSampleT = t
        if let window = windower.add(t: t, counters: counters) { windows.append(window) }
    }

    package var result: PreCallResult {
        let end = criteria.duration
        let video = check(windowAt(end)?.video, kbps: criteria.videoKbps, lossPercent: criteria.videoLossPercent)
        let audio = check(windowAt(end)?.audio, kbps: criteria.audioKbps, lossPercent: criteria.audioLossPercent)
        var decidedAt = end
        var retest: MediaCheck?
        let verdict: PreCallVerdict
        if video.passes && (audio.passes || criteria.videoAloneSuffices) {
            verdict = .audioVideo
        } else if audio.passes {
            verdict = .audioOnly
        } else if criteria.audioRetest > 0 {
            // The sample unpublishes video and measures audio alone for a while (it gets here only
            // when neither passed; under the default rule also when video passed but audio did not).
            decidedAt = end + criteria.audioRetest
            let again = check(
                windowAt(decidedAt)?.audio, kbps: criteria.audioKbps, lossPercent: criteria.audioLossPercent)
            retest = again
            verdict = again.passes ? .audioOnly : .neither
        } else {
            verdict = .neither
        }
        return PreCallResult(
            verdict: verdict, windows: windows.filter { $0.t <= decidedAt }, decidedAt: decidedAt,
            video: video, audio: audio, retest: retest, restarts: windower.restarts.filter { $0 <= decidedAt },
            lastSampleT: lastSampleT)
    }

    /// The latest window closed at or before `t`.
    private func windowAt(_ t: Int) -> NetStatsWindow? {
        windows.last { $0.t <= t }
    }

    private func check(_ window: MediaWindow?, kbps: Double, lossPercent: Double) -> MediaCheck {
        MediaCheck(window, kbps: kbps, lossPercent: lossPercent, unknownLossPasses: criteria.unknownLossPasses)
    }
}
