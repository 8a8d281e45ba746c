import AVTTrackers

/// A verdict and how it was reached.
package struct PreCallResult: Sendable, Equatable {
    package let verdict: PreCallVerdict
    /// The windows that closed up to the decision (`decidedAt`), in order.
    package let windows: [NetStatsWindow]
    /// Virtual time of the decision: the test's end, or the end of the audio-only retest.
    package let decidedAt: Int
    /// The checks at the test's end.
    package let video: MediaCheck
    package let audio: MediaCheck
    /// The audio check at the end of the retest, when there was one.
    package let retest: MediaCheck?
    /// Times at which counters went backwards (up to the decision).
    package let restarts: [Int]
    /// t of the last sample; before `decidedAt` the recording ended before the test did.
    package let lastSampleT: Int?
}

extension PreCallResult {
    /// What makes the verdict weaker than it looks: a recording that ends before the verdict,
    /// or one with no samples at all. `input` names the timeline.
    package func warnings(input: String) -> [String] {
        if let last = lastSampleT, last < decidedAt {
            return [
                "\(input): the last sample is at t=\(last) ms, before the verdict at t=\(decidedAt) ms; the verdict uses the windows closed by then"
            ]
        }
        return lastSampleT == nil ? ["\(input): the netstats tracker has no samples"] : []
    }
}
