/// One medium (audio or video) over one window.
package struct MediaWindow: Sendable, Equatable {
    /// Bits per second, truncated to an integer (8 × Δbytes ÷ Δseconds).
    package let bandwidth: Int
    /// nil when it is unknown (no packets in the window, or the sample's first-window rule).
    package let loss: PacketLoss?

    package init(bandwidth: Int, loss: PacketLoss?) {
        self.bandwidth = bandwidth
        self.loss = loss
    }
}
