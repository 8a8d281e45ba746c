/// Cuts a stream of cumulative samples into windows: the first sample is the baseline, and a
/// window closes at the first sample at least `length` ms after the baseline; that sample is the
/// baseline of the next window. Audio and video share the window (one sample carries both).
///
/// A counter that goes backwards (smaller than in the previous sample: the subscriber was
/// recreated, or the SDK restarted its counts) restarts the windowing from that sample, as if it
/// were the first: the interrupted window yields nothing, and nothing negative is ever measured.
package struct NetStatsWindower: Sendable {
    /// How a window's numbers are computed.
    package enum Arithmetic: Sendable, Equatable {
        /// Integers throughout: bandwidth ⌊8000 × Δbytes ÷ Δms⌋ bps; loss known whenever the window
        /// has packets.
        case exact
        /// OpenTok's iOS sample (OTNetworkTest.m): bandwidth `8 × Δbytes ÷ (Δms ÷ 1000)` in doubles,
        /// truncated to an integer (`long`); its packet baseline starts at 0 and is first taken when
        /// a window closes, so the first window's loss is unknown, and so is every window that
        /// starts with 0 packets received.
        case openTokSample
    }

    package let length: Int
    package let arithmetic: Arithmetic
    /// The sample that opened the current window.
    private var baseline: (t: Int, counters: NetStatsCounters)?
    private var previous: NetStatsCounters?
    /// Whether a window closed since the last (re)start.
    private var closedSinceStart = false
    /// Virtual times at which counters went backwards and the windowing restarted.
    package private(set) var restarts: [Int] = []

    package init(length: Int, arithmetic: Arithmetic = .exact) {
        precondition(length >= 1, "a window lasts at least 1 ms")
        self.length = length
        self.arithmetic = arithmetic
    }

    /// Takes the sample at `t` (never earlier than the previous one); returns the window it closes.
    package mutating func add(t: Int, counters: NetStatsCounters) -> NetStatsWindow? {
        defer { previous = counters }
        if let previous, counters.wentBackwards(since: previous) {
            restarts.append(t)
            restart(t: t, counters: counters)
            return nil
        }
        guard let start = baseline else {
            restart(t: t, counters: counters)
            return nil
        }
        let elapsed = t - start.t
        guard elapsed >= length else { return nil }
        let window = NetStatsWindow(
            t: t, length: elapsed,
            video: measure(start.counters.video, counters.video, elapsed),
            audio: measure(start.counters.audio, counters.audio, elapsed))
        baseline = (t, counters)
        closedSinceStart = true
        return window
    }

    private mutating func restart(t: Int, counters: NetStatsCounters) {
        baseline = (t, counters)
        closedSinceStart = false
    }

    private func measure(_ from: MediaCounters, _ to: MediaCounters, _ ms: Int) -> MediaWindow {
        let bytes = to.bytesReceived - from.bytesReceived
        let lost = to.packetsLost - from.packetsLost
        let received = to.packetsReceived - from.packetsReceived
        // Counts are ≥ 0 and never decrease here, so the sum only overflows for absurd inputs.
        let (total, overflow) = lost.addingReportingOverflow(received)
        var loss = total > 0 && !overflow ? PacketLoss(lost: lost, total: total) : nil
        let bandwidth: Int
        switch arithmetic {
        case .exact:
            bandwidth = Self.exactBitsPerSecond(bytes: bytes, ms: ms)
        case .openTokSample:
            bandwidth = Self.clampedInt(8 * Double(bytes) / (Double(ms) / 1000))
            if !closedSinceStart || from.packetsReceived == 0 { loss = nil }
        }
        return MediaWindow(bandwidth: bandwidth, loss: loss)
    }

    /// ⌊8000 × bytes ÷ ms⌋ without overflow (bytes ≥ 0, ms ≥ 1); saturates at Int.max.
    static func exactBitsPerSecond(bytes: Int, ms: Int) -> Int {
        let product = UInt(bytes).multipliedFullWidth(by: 8000)
        // The quotient fits when the high word is below the divisor.
        guard product.high < UInt(ms) else { return Int.max }
        let quotient = UInt(ms).dividingFullWidth(product).quotient
        return quotient > UInt(Int.max) ? Int.max : Int(quotient)
    }

    /// C's conversion of a double to `long` (truncation), saturating instead of being undefined.
    static func clampedInt(_ x: Double) -> Int {
        truncatedInt(x) ?? (x > 0 ? Int.max : 0)
    }
}
