import AVTJSON

/// One medium's cumulative subscriber counters, as OpenTok's subscriber network stats report
/// them: they only grow while the subscriber lives.
package struct MediaCounters: Sendable, Equatable {
    package var bytesReceived = 0
    package var packetsReceived = 0
    package var packetsLost = 0

    package init(bytesReceived: Int = 0, packetsReceived: Int = 0, packetsLost: Int = 0) {
        self.bytesReceived = bytesReceived
        self.packetsReceived = packetsReceived
        self.packetsLost = packetsLost
    }

    /// Whether any counter is smaller than in `earlier`: the counters restarted.
    func wentBackwards(since earlier: MediaCounters) -> Bool {
        bytesReceived < earlier.bytesReceived || packetsReceived < earlier.packetsReceived
            || packetsLost < earlier.packetsLost
    }
}
