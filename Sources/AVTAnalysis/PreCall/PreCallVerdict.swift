import AVTTrackers
/// What a client can publish, best first.
package enum PreCallVerdict: String, Sendable, CaseIterable, Comparable {
    case audioVideo = "audio-video"
    case audioOnly = "audio-only"
    case neither

    /// 2 for audio-video, 1 for audio-only, 0 for neither.
    package var rank: Int {
        switch self {
        case .audioVideo: return 2
        case .audioOnly: return 1
        case .neither: return 0
        }
    }

    package static func < (a: PreCallVerdict, b: PreCallVerdict) -> Bool { a.rank < b.rank }
}

/// One medium's check against its thresholds, on the latest window at the check's time.
package struct MediaCheck: Sendable, Equatable {
    /// The window's values; bandwidth 0 and unknown loss when no window had closed (the sample's
    /// initial values).
    package let bandwidth: Int
    package let loss: PacketLoss?
    package let bandwidthPasses: Bool
    package let lossPasses: Bool
    package var passes: Bool { bandwidthPasses && lossPasses }

    init(_ window: MediaWindow?, kbps: Double, lossPercent: Double, unknownLossPasses: Bool) {
        bandwidth = window?.bandwidth ?? 0
        loss = window?.loss
        // The truncated integer compared to the threshold, as the sample's `long`; for whole-bps
        // thresholds this is the same as comparing the exact rate.
        bandwidthPasses = Double(bandwidth) >= kbps * 1000
        lossPasses = loss.map { $0.isAtMost(percent: lossPercent) } ?? unknownLossPasses
    }
}

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
