@testable import AVTAnalysis
@testable import AVTKPI
@testable import AVTOutput
@testable import AVTTrackers

/// Counters for tests: `video(bytes, received, lost)` / `audio(…)` snapshots.
func stats(
    video: (bytes: Int, received: Int, lost: Int) = (0, 0, 0), audio: (bytes: Int, received: Int, lost: Int) = (0, 0, 0)
) -> NetStatsCounters {
    NetStatsCounters(
        video: MediaCounters(bytesReceived: video.bytes, packetsReceived: video.received, packetsLost: video.lost),
        audio: MediaCounters(bytesReceived: audio.bytes, packetsReceived: audio.received, packetsLost: audio.lost))
}

extension PreCallTest {
    /// A test fed `samples` in order.
    static func with(_ criteria: PreCallCriteria, _ samples: [(t: Int, counters: NetStatsCounters)]) -> PreCallTest {
        var test = PreCallTest(criteria: criteria)
        for sample in samples { test.add(t: sample.t, counters: sample.counters) }
        return test
    }
}
