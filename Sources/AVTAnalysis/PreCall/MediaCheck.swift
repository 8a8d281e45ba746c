import AVTTrackers

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
