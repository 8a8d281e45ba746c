import AVTCore
import XCTest
// TEMPORARY: every assertion here must FAIL.
final class ZZHarnessMutation: XCTestCase {
    func testWrongAttribute() { let r = Replay(); r.expect(r.step(0, .streamLoad), .streamLoad, metrics: [("NumLoads", 1)], [.countStarts: 1]) }
    func testWrongId() { let r = Replay(); r.expect(r.step(0, .streamLoad), .streamLoad, metrics: [("NumLoads", 1)], [.playbackId: "P2"]) }
    func testWrongStream() { let r = Replay(); r.expect(r.step(0, .streamLoad), .streamLoad, metrics: [("NumLoads", 1)], [.streamId: "S2"]) }
    func testWrongMetrics() { let r = Replay(); r.expect(r.step(0, .streamLoad), .streamLoad, metrics: []) }
    func testWrongMetricValue() { let r = Replay(); r.expect(r.step(0, .streamLoad), .streamLoad, metrics: [("NumLoads", 2)]) }
    func testAbsentPresent() { let r = Replay(); r.expect(r.step(0, .streamLoad), .streamLoad, metrics: [("NumLoads", 1)], absent: [.streamId]) }
    func testWrongAction() { let r = Replay(); r.expect(r.step(0, .streamLoad), .start, metrics: [("NumLoads", 1)]) }
    func testBlockedNot() { let r = Replay(); r.expectBlocked(r.step(0, .streamLoad)) }
    func testMissingAttribute() { let r = Replay(); r.expect(r.step(0, .streamLoad), .streamLoad, metrics: [("NumLoads", 1)], [.deltaPlayTime: 0]) }
    func testWrongSender() { let r = Replay(); r.expect(r.step(0, .streamLoad), .streamLoad, metrics: [("NumLoads", 1)], [.senderId: r.sender(1)]) }
    func testTimeSince() { let r = Replay(); r.step(0, .streamLoad); r.expectNoTimeSince(r.expect(r.step(5, .error), .error)) }
    func testTwoEvents() { let r = Replay(); r.run([Step(0,0,.streamLoad),Step(0,0,.start)]); r.expect(r.step(30000, .error), .error, metrics: [("PlayTime", 0)]) }
}
