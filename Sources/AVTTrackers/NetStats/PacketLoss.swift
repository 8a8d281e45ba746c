/// Packets lost in a window out of all the packets that were due in it
/// (Δlost ÷ (Δlost + Δreceived)). The counts are kept so thresholds compare exactly.
package struct PacketLoss: Sendable, Equatable {
    package let lost: Int
    /// Lost plus received; always > 0 (a window without packets has no loss, it is unknown).
    package let total: Int

    package init(lost: Int, total: Int) {
        precondition(total > 0 && lost >= 0 && lost <= total)
        self.lost = lost
        self.total = total
    }

    /// The ratio 0…1, one correctly rounded division, so the same counts always print the same.
    package var ratio: Double { Double(lost) / Double(total) }

    /// Whether the loss is at most `percent` %, compared exactly as lost × 100 ≤ percent × total
    /// (exact in doubles for counts below 2^46 and whole or binary-fraction percentages).
    package func isAtMost(percent: Double) -> Bool {
        Double(lost) * 100 <= percent * Double(total)
    }
}
