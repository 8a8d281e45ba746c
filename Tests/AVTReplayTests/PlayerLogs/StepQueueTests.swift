import XCTest

@testable import AVTTimeline

/// The queue a player log's reader hands its steps out of: steps are numbered in arrival order and
/// never go back in time, also across a drained queue (a step derived late, such as an error
/// flushed when the next line arrives, may come after everything before it was handed out).
final class StepQueueTests: XCTestCase {
    func testStepsAreNumberedAndNeverGoBackAcrossADrain() {
        var queue = StepQueue()
        XCTAssertTrue(queue.isEmpty)
        XCTAssertNil(queue.pop())
        queue.push(Step(t: 500, tracker: 0, origin: StepOrigin(index: 7)))
        queue.push(Step(t: 300, tracker: 0, origin: StepOrigin(index: 7)))
        XCTAssertEqual(queue.nextIndex, 2)
        let first = queue.pop()
        let second = queue.pop()
        XCTAssertEqual(first?.origin.index, 0)
        XCTAssertEqual(first?.t, 500)
        XCTAssertEqual(second?.origin.index, 1)
        XCTAssertEqual(second?.t, 500, "placed at the time already reached")
        XCTAssertTrue(queue.isEmpty)
        queue.push(Step(t: 200, tracker: 1, origin: StepOrigin(index: 0)))
        let late = queue.pop()
        XCTAssertEqual(late?.origin.index, 2)
        XCTAssertEqual(late?.t, 500, "the drained steps' time still holds")
        XCTAssertNil(queue.pop())
    }
}
