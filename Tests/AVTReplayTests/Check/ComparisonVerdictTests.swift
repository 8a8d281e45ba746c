import AVTFormats
import AVTJSON
import Foundation
import XCTest

@testable import AVTAnalysis
@testable import AVTKPI
@testable import AVTOutput
@testable import AVTReplay
@testable import AVTTimeline

/// check/diff verdicts at any size: only records of the same kind and name pair up, and each
/// tolerance loosens only what it names.
final class ComparisonVerdictTests: XCTestCase {
    private func compare(
        _ a: [OutputRecord], _ b: [OutputRecord], _ configure: (inout ComparisonOptions) -> Void = { _ in }
    ) -> Comparison {
        var options = ComparisonOptions()
        configure(&options)
        return RecordComparator.compare(expected: a, actual: b, options: options)
    }

    private func metric(_ name: String, _ value: JSONValue, t: Int, kind: String = "gauge", line: Int = 1)
        -> OutputRecord
    {
        OutputRecord(
            line: line, type: "metric", session: nil, t: t, label: name, tracker: "content", value: value,
            attributes: [], metricType: kind)
    }

    func testALiveSessionOfFiftyMinutesWithRenamedPlayTimeFails() throws {
        let timeline = """
            {"pingInterval": 1000, "until": 3000000, "trackers": [{"name": "content"}], "steps": [
              {"t": 0, "tracker": "content", "action": "StreamLoad"},
              {"t": 1000, "tracker": "content", "action": "Start"}]}
            """
        let sink = MemorySink()
        try Replayer.replayToJSONLines(
            try TimelineDecoder.decode(Array(timeline.utf8), file: "live.json"), options: RunOptions(), sink: sink)
        let golden = try OutputLog.read(ByteInput(bytes: sink.bytes, name: "golden"))
        XCTAssertGreaterThan(golden.count, 6000)
        var renamed = golden
        for index in renamed.indices where renamed[index].label == "PlayTime" { renamed[index].label = "PlayingTime" }
        let playTimes = golden.filter { $0.label == "PlayTime" }.count
        XCTAssertGreaterThan(playTimes, 2900)

        let comparison = compare(renamed, golden)
        XCTAssertFalse(comparison.isEqual)
        XCTAssertEqual(comparison.changed, 0)
        XCTAssertEqual(comparison.missing, playTimes)
        XCTAssertEqual(comparison.extra, playTimes)
        for entry in comparison.entries {
            switch entry {
            case .missing(let r): XCTAssertEqual(r.label, "PlayingTime")
            case .extra(let r): XCTAssertEqual(r.label, "PlayTime")
            case .changed: XCTFail("a renamed record is not the same record changed")
            case .same(let e, let a): XCTAssertEqual(e.label, a.label)
            }
        }
    }

    func testCountersOfDifferentNamesNeverPairAtAnySize() {
        let plays = (0..<2001).map { metric("NumPlays", .int(1), t: $0 * 1000, kind: "counter", line: $0 + 1) }
        let errors = (0..<2001).map { metric("NumErrors", .int(1), t: $0 * 1000, kind: "counter", line: $0 + 1) }
        let comparison = compare(plays, errors)
        XCTAssertFalse(comparison.isEqual)
        XCTAssertEqual(comparison.missing, 2001)
        XCTAssertEqual(comparison.extra, 2001)
        XCTAssertEqual(comparison.changed, 0)
    }

    func testOneRenameInAHundredThousandRecordsIsTheOnlyDifference() {
        let names = ["PlayTime", "NumPlays", "StartTime", "NumRequests"]
        let expected = (0..<100_000).map { metric(names[$0 % 4], .int($0 % 7), t: $0 / 2 * 100, line: $0 + 1) }
        var actual = expected
        actual[50_001].label = "RebufferTime"
        // How long it takes is measured by scripts/bench (the diff rows), not asserted here.
        let comparison = compare(expected, actual)
        XCTAssertEqual(comparison.changed, 0)
        XCTAssertEqual(comparison.missing, 1)
        XCTAssertEqual(comparison.extra, 1)
        let differences = comparison.entries.filter(\.isDifference)
        XCTAssertEqual(differences, [.missing(expected[50_001]), .extra(actual[50_001])])
    }

    func testScatteredRenamesInALongSequenceAlignExactly() {
        let names = ["PlayTime", "NumPlays"]
        let expected = (0..<20_000).map { metric(names[$0 % 2], .int(1), t: $0 * 10, line: $0 + 1) }
        var actual = expected
        for index in stride(from: 3, to: 20_000, by: 4) { actual[index].label = "Other" }
        let comparison = compare(expected, actual)
        XCTAssertEqual(comparison.missing, 5000)
        XCTAssertEqual(comparison.extra, 5000)
        XCTAssertEqual(comparison.changed, 0)
    }

    func testEveryTimeShiftedWithManyRenamesStillAligns() {
        let names = ["PlayTime", "NumPlays", "StartTime", "NumRequests"]
        let expected = (0..<100_000).map { metric(names[$0 % 4], .int(1), t: $0 * 100, line: $0 + 1) }
        var actual = expected
        for index in actual.indices {
            actual[index].t! += 40
            if index % 10 == 5 { actual[index].label = "Renamed" }
        }
        // How long it takes is measured by scripts/bench (the diff rows), not asserted here.
        let comparison = compare(expected, actual) { $0.tolerance = 50 }
        XCTAssertEqual(comparison.changed, 0)
        XCTAssertEqual(comparison.missing, 10_000)
        XCTAssertEqual(comparison.extra, 10_000)
    }

    func testTheTimeToleranceLoosensTimesOnly() {
        let loss = [metric("VideoPacketLoss", .double(0.0055), t: 1000)]
        let worse = [metric("VideoPacketLoss", .double(0.9), t: 1000)]
        XCTAssertFalse(compare(loss, worse) { $0.tolerance = 50 }.isEqual)
        let one = [metric("NumRebuffers", .int(1), t: 1000, kind: "counter")]
        let three = [metric("NumRebuffers", .int(3), t: 1000, kind: "counter")]
        XCTAssertFalse(compare(one, three) { $0.tolerance = 50 }.isEqual)
        XCTAssertTrue(
            compare(one, [metric("NumRebuffers", .int(1), t: 1040, kind: "counter")]) { $0.tolerance = 50 }.isEqual)
        XCTAssertFalse(
            compare(one, [metric("NumRebuffers", .int(1), t: 1060, kind: "counter")]) { $0.tolerance = 50 }.isEqual)
        // Milliseconds-valued gauges are times.
        let start = [metric("StartTime", .int(1000), t: 1000)]
        XCTAssertTrue(compare(start, [metric("StartTime", .int(1040), t: 1000)]) { $0.tolerance = 50 }.isEqual)
        XCTAssertFalse(compare(start, [metric("StartTime", .int(1040), t: 1000)]).isEqual)
    }

    func testValueTolerancesLoosenWhatTheyName() throws {
        func tolerant(_ specs: String...) -> (inout ComparisonOptions) -> Void {
            { options in options.valueTolerances = specs.compactMap(ValueTolerance.init) }
        }
        let bandwidth = [metric("VideoBandwidth", .int(1_000_000), t: 0)]
        let near = [metric("VideoBandwidth", .int(1_009_000), t: 0)]
        XCTAssertFalse(compare(bandwidth, near).isEqual)
        XCTAssertTrue(compare(bandwidth, near, tolerant("1%")).isEqual)
        XCTAssertTrue(compare(bandwidth, near, tolerant("gauge=0.9%")).isEqual)
        XCTAssertFalse(compare(bandwidth, near, tolerant("gauge=0.5%")).isEqual)
        XCTAssertTrue(compare(bandwidth, near, tolerant("1%", "VideoBandwidth=9000")).isEqual)
        XCTAssertFalse(compare(bandwidth, near, tolerant("1%", "VideoBandwidth=10")).isEqual, "a name beats a kind")
        // Ratios and counters stay exact unless named.
        let loss = [metric("VideoPacketLoss", .double(0.5), t: 0)]
        let more = [metric("VideoPacketLoss", .double(0.504), t: 0)]
        XCTAssertFalse(compare(loss, more, tolerant("1%")).isEqual)
        XCTAssertTrue(compare(loss, more, tolerant("ratio=0.01")).isEqual)
        let one = [metric("NumRebuffers", .int(1), t: 0, kind: "counter")]
        let two = [metric("NumRebuffers", .int(2), t: 0, kind: "counter")]
        XCTAssertFalse(compare(one, two, tolerant("100%")).isEqual)
        XCTAssertTrue(compare(one, two, tolerant("counter=1")).isEqual)
        XCTAssertTrue(compare(one, two, tolerant("NumRebuffers=1")).isEqual)
        XCTAssertNil(ValueTolerance("=1"))
        XCTAssertNil(ValueTolerance("gauge=-1"))
        XCTAssertNil(ValueTolerance("x%"))
        XCTAssertEqual(try XCTUnwrap(ValueTolerance("StartTime=50")).selector, .name("StartTime"))
    }

    func testIgnoredNamesThatMatchNothingAreReported() {
        var record = metric("StartTime", .int(1), t: 0)
        record.attributes = [("position", .int(5))]
        let comparison = compare([record], [record]) { $0.ignore = ["position", "postion", "t", "value"] }
        XCTAssertTrue(comparison.isEqual)
        XCTAssertEqual(comparison.unmatchedIgnores, ["postion"])
    }

    func testTheTextReportEscapesControlCharacters() {
        var expected = metric("Start\u{1B}[2JTime", .string("a\rb\u{7}"), t: 0)
        expected.attributes = [("x\u{1B}y", .string("\u{202E}evil"))]
        var actual = expected
        actual.value = .string("c")
        actual.attributes = [("x\u{1B}y", .string("ok"))]
        for color in [false, true] {
            let text = DiffReport.text(compare([expected], [actual]), color: color)
            let raw = text.replacingOccurrences(of: "\u{1B}[33m", with: "").replacingOccurrences(
                of: "\u{1B}[0m", with: "")
            XCTAssertFalse(raw.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, raw)
            XCTAssertFalse(raw.unicodeScalars.contains { $0.value == 0x202E }, raw)
            XCTAssertTrue(raw.contains("Start\\u001B[2JTime"), raw)
            XCTAssertTrue(raw.contains("attributes.x\\u001By"), raw)
            XCTAssertTrue(raw.contains("\\u202Eevil"), raw)
        }
        XCTAssertEqual(TerminalText.escaped("plain → text"), "plain → text")
    }

    func testAlignmentIsAMinimalValidScriptOnRandomSequences() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let a = (0..<Int.random(in: 0...40, using: &generator)).map { _ in Int.random(in: 0...3, using: &generator)
            }
            let b = (0..<Int.random(in: 0...40, using: &generator)).map { _ in Int.random(in: 0...3, using: &generator)
            }
            let times = { (n: Int) in (0..<n).map { Optional($0 / 3) } }
            for steps in [
                SequenceAlignment.align(a, b), SequenceAlignment.align(a, b, times: times(a.count), times(b.count)),
            ] {
                var i = 0
                var j = 0
                var matches = 0
                for step in steps {
                    switch step {
                    case .match(let x, let y):
                        XCTAssertEqual([x, y], [i, j])
                        XCTAssertEqual(a[x], b[y], "only equal elements pair")
                        (i, j, matches) = (i + 1, j + 1, matches + 1)
                    case .delete(let x):
                        XCTAssertEqual(x, i)
                        i += 1
                    case .insert(let y):
                        XCTAssertEqual(y, j)
                        j += 1
                    }
                }
                XCTAssertEqual([i, j], [a.count, b.count])
                if steps == SequenceAlignment.align(a, b) {
                    XCTAssertEqual(matches, longestCommonSubsequence(a, b), "\(a) \(b)")
                }
            }
        }
    }

    private func longestCommonSubsequence(_ a: [Int], _ b: [Int]) -> Int {
        var row = [Int](repeating: 0, count: b.count + 1)
        for x in a {
            var diagonal = 0
            for (j, y) in b.enumerated() {
                let above = row[j + 1]
                row[j + 1] = x == y ? diagonal + 1 : max(row[j + 1], row[j])
                diagonal = above
            }
        }
        return row[b.count]
    }
}
