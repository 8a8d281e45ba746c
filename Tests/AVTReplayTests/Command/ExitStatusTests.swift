import AVTJSON
import XCTest

@testable import AVTOutput
@testable import AVTReplay
@testable import AVTTimeline

/// The documented exit codes, and which errors map to which.
final class ExitStatusTests: XCTestCase {
    func testCodes() {
        XCTAssertEqual(
            [
                ExitStatus.ok, .differs, .failure, .badInput, .notDelivered, .interrupted(signal: 2),
                .interrupted(signal: 15),
            ].map(\.code),
            [0, 1, 1, 2, 3, 130, 143])
    }

    func testErrorsMapToFailures() {
        let timeline = TimelineError(
            file: "a.json", location: SourceLocation(line: 1, column: 2), message: "expected a value")
        XCTAssertEqual(CommandFailure(timeline), .badInput(timeline.description))
        let output = OutputError(path: "out", message: "No space left on device")
        XCTAssertEqual(
            CommandFailure(output),
            CommandFailure(message: "cannot write out: No space left on device", status: .failure))
        XCTAssertNil(CommandFailure(OutputError(path: "-", message: "Broken pipe", isBrokenPipe: true)))
        XCTAssertEqual(CommandFailure(UsageError("--x is bad")), .badInput("--x is bad"))
        let failure = CommandFailure(message: "worse", status: .differs)
        XCTAssertEqual(CommandFailure(failure), failure)
        struct Other: Error {}
        XCTAssertEqual(CommandFailure(Other())?.status, .badInput)
    }
}
