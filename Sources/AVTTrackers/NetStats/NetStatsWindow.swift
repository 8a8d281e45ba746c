/// Packets lost in a window out of all the packets that were due in it
/// (Δlost ÷ (Δlost + Δreceived)). The counts are kept so thresholds compare exactly.
public struct PacketLoss: Sendable, Equatable {
    public let lost: Int
    /// Lost plus received; always > 0 (a window without packets has no loss, it is unknown).
    public let total: Int

    public init(lost: Int, total: Int) {
        precondition(total > 0 && lost >= 0 && lost <= total)
        self.lost = lost
        self.total = total
    }

    /// The ratio 0…1, one correctly rounded division, so the same counts always print the same.
    public var ratio: Double { Double(lost) / Double(total) }

    /// Whether the loss is at most `percent` %, compared exactly as lost × 100 ≤ percent × total
    /// (exact in doubles for counts below 2^46 and whole or binary-fraction percentages).
    public func isAtMost(percent: Double) -> Bool {
        Double(lost) * 100 <= percent * Double(total)
    }
}

/// One medium (audio or video) over one window.
public struct MediaWindow: Sendable, Equatable {
    /// Bits per second, truncated to an integer (8 × Δbytes ÷ Δseconds).
    public let bandwidth: Int
    /// nil when it is unknown (no packets in the window, or the sample's first-window rule).
    public let loss: PacketLoss?

    public init(bandwidth: Int, loss: PacketLoss?) {
        self.bandwidth = bandwidth
        self.loss = loss
    }
}

/// What one closed window measured: from the sample that opened it to the sample at `t` that
/// closed it, `length` ms later.
public struct NetStatsWindow: Sendable, Equatable {
    /// Virtual time (ms) of the sample that closed the window.
    public let t: Int
    /// Milliseconds the window spans (≥ the window length it was closed with).
    public let length: Int
    public let video: MediaWindow
    public let audio: MediaWindow

    public init(t: Int, length: Int, video: MediaWindow, audio: MediaWindow) {
        self.t = t
        self.length = length
        self.video = video
        self.audio = audio
    }
}
