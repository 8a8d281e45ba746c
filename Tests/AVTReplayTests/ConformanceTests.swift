import XCTest

/// Every shared conformance case must replay to exactly its expected output.
final class ConformanceTests: XCTestCase {
    func testScenarioCasesMatchReferenceOutput() throws {
        try assertSuitePasses("scenarios", atLeast: 40)
    }

    func testRandomCasesMatchReferenceOutput() throws {
        try assertSuitePasses("random", atLeast: 40)
    }

    private func assertSuitePasses(_ suite: String, atLeast minimum: Int) throws {
        let cases = try Conformance.cases(in: suite)
        XCTAssertGreaterThanOrEqual(cases.count, minimum, "fewer \(suite) cases than expected")
        var failures: [String] = []
        for timeline in cases {
            let name = timeline.deletingPathExtension().lastPathComponent
            let expectedText = try String(contentsOf: Conformance.expectedURL(for: timeline), encoding: .utf8)
            let expected = Conformance.normalized(try Conformance.records(expectedText))
            let actual = Conformance.normalized(try Conformance.records(try Conformance.replay(timeline)))
            if let index = zip(expected, actual).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
                failures.append(
                    "\(name): record \(index + 1)\n  expected \(expected[index])\n  actual   \(actual[index])")
            } else if expected.count != actual.count {
                failures.append("\(name): \(expected.count) records expected, \(actual.count) produced")
            }
        }
        XCTAssertTrue(
            failures.isEmpty,
            "\(failures.count) of \(cases.count) \(suite) cases differ:\n" + failures.joined(separator: "\n"))
    }
}
