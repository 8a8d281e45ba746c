import Foundation
import XCTest

@testable import AVTAnalysis
@testable import AVTKPI
@testable import AVTOutput

/// `check` reports each case as it finishes: the streamed report must be byte for byte the
/// report of all the cases at once, and the parallel check must hold only a few cases.
final class CheckReportWriterTests: XCTestCase {
    private func cases() -> [CheckCase] {
        let record = OutputRecord(
            line: 1, type: "metric", t: 1400, label: "StartTime", tracker: "content", value: .int(1399),
            attributes: [])
        var changed = record
        changed.value = .int(1400)
        let differing = RecordComparator.compare(expected: [record], actual: [changed], options: ComparisonOptions())
        let equal = RecordComparator.compare(expected: [record], actual: [record], options: ComparisonOptions())
        return [
            CheckCase(name: "./a.json", seconds: 0.25, outcome: .compared(equal.withoutRecords)),
            CheckCase(name: "b.json", seconds: 1.5, outcome: .compared(differing)),
            CheckCase(name: "c.json", seconds: 0, outcome: .error("c.json: unreadable <here> & \"there\"")),
            CheckCase(name: "d.json", seconds: 0, outcome: .skipped("no expected output"), strict: false),
            CheckCase(name: "e.expected.jsonl", seconds: 0, outcome: .orphaned("no timeline")),
        ]
    }

    func testTheStreamedReportIsTheWholeReport() throws {
        for format in CheckReport.Format.allCases {
            let sink = MemorySink()
            let writer = try CheckReportWriter(format: format, to: sink, maxDifferences: 50)
            for testCase in cases() { try writer.add(testCase) }
            try writer.finish { "2026-03-01T12:00:00" }
            let whole = CheckReport.render(
                cases(), format: format, single: false, color: false, timestamp: "2026-03-01T12:00:00")
            XCTAssertEqual(sink.text, whole, "\(format)")
            XCTAssertEqual(writer.totals, CheckTotals(cases()))
            XCTAssertEqual(writer.totals.line, "1 passed, 2 failed, 1 errors, 1 skipped")
        }
    }

    /// Nothing but the totals: an empty suite is still a whole document.
    func testAnEmptyReportIsWhole() throws {
        for format in CheckReport.Format.allCases {
            let sink = MemorySink()
            let writer = try CheckReportWriter(format: format, to: sink)
            try writer.finish { "" }
            XCTAssertEqual(
                sink.text, CheckReport.render([], format: format, single: false, color: false, timestamp: ""))
        }
    }

    /// Results come in input order however the jobs finish, and no more than the window of
    /// items is ever taken and not yet delivered: memory does not grow with the item count.
    func testOrderedParallelDeliversInOrderWithinItsWindow() throws {
        final class Counter: @unchecked Sendable {
            let lock = NSLock()
            var started = 0
            var delivered = 0
            var most = 0
            func start() {
                lock.lock()
                started += 1
                most = max(most, started - delivered)
                lock.unlock()
            }
            func deliver() {
                lock.lock()
                delivered += 1
                lock.unlock()
            }
        }
        let counter = Counter()
        var order: [Int] = []
        try OrderedParallel<Int, Int>.forEach(Array(0..<300), jobs: 3, window: 5) { item in
            counter.start()
            // Later items finish first now and then, so order is not an accident of timing.
            if item % 7 == 0 { Thread.sleep(forTimeInterval: 0.002) }
            return item * 2
        } deliver: {
            order.append($0)
            counter.deliver()
        }
        XCTAssertEqual(order, (0..<300).map { $0 * 2 })
        // The window, and the one being handed over (counted delivered only once its callback ran).
        XCTAssertLessThanOrEqual(counter.most, 6)
        XCTAssertGreaterThan(counter.most, 1, "the jobs ran side by side")
    }

    /// An error while reporting stops the check: no later case is delivered.
    func testOrderedParallelStopsWhenDeliveryThrows() {
        struct Stop: Error {}
        var seen: [Int] = []
        XCTAssertThrowsError(
            try OrderedParallel<Int, Int>.forEach(Array(0..<100), jobs: 2, { $0 }) { item in
                if item == 10 { throw Stop() }
                seen.append(item)
            })
        XCTAssertEqual(seen, Array(0..<10))
    }
}
