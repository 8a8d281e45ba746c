import XCTest

@testable import AVTOutput

/// `--format openmetrics` of several sessions: one text, families together, `# EOF` last.
final class OpenMetricsMergingSinkTests: XCTestCase {
    private func merged(_ chunks: [String], spillThreshold: Int = 1 << 20) throws -> String {
        let memory = MemorySink()
        let sink = OpenMetricsMergingSink(target: memory, spillThreshold: spillThreshold)
        for chunk in chunks { try sink.write(Array(chunk.utf8)) }
        try sink.close()
        return String(decoding: memory.bytes, as: UTF8.self)
    }

    private let sessionA = """
        # TYPE oavt_events counter
        oavt_events_total{session="a"} 1 1.000
        # TYPE oavt_start_time_seconds gauge
        # UNIT oavt_start_time_seconds seconds
        oavt_start_time_seconds{session="a"} 2 1.000
        oavt_events_total{session="a"} 2 2.000

        """
    private let sessionB = """
        # TYPE oavt_start_time_seconds gauge
        # UNIT oavt_start_time_seconds seconds
        oavt_start_time_seconds{session="b"} 3 1.000
        # TYPE oavt_events counter
        oavt_events_total{session="b"} 1 1.000
        oavt_custom 7 1.000

        """
    private let expected = """
        # TYPE oavt_events counter
        oavt_events_total{session="a"} 1 1.000
        oavt_events_total{session="a"} 2 2.000
        oavt_events_total{session="b"} 1 1.000
        # TYPE oavt_start_time_seconds gauge
        # UNIT oavt_start_time_seconds seconds
        oavt_start_time_seconds{session="a"} 2 1.000
        oavt_start_time_seconds{session="b"} 3 1.000
        oavt_custom 7 1.000
        # EOF

        """

    func testFamiliesAreGroupedOnceAndTheTextEndsWithEOF() throws {
        XCTAssertEqual(try merged([sessionA, sessionB]), expected)
    }

    func testChunksSplitAnywhereAndSpilledFamiliesGiveTheSameText() throws {
        let text = Array((sessionA + sessionB).utf8)
        for size in [1, 7, 64] {
            let chunks = stride(from: 0, to: text.count, by: size).map {
                String(decoding: text[$0..<min(text.count, $0 + size)], as: UTF8.self)
            }
            XCTAssertEqual(try merged(chunks, spillThreshold: 16), expected, "chunks of \(size)")
        }
    }

    /// OpenMetrics wants each series' samples together within its family (the order a label set
    /// first appears in), whatever order a session wrote them in; spilled or not.
    func testEachSeriesSamplesComeTogetherInTheOrderWritten() throws {
        let interleaved = """
            # TYPE oavt_events counter
            oavt_events_total{action="A",s="x y"} 0 0.999
            oavt_events_total{action="B",s="x y"} 0 0.999
            oavt_events_total{action="A",s="x y"} 1 1.000
            oavt_events_total{action="B",s="x y"} 1 1.500
            oavt_events_total{action="A",s="x y"} 2 2.000

            """
        let grouped = """
            # TYPE oavt_events counter
            oavt_events_total{action="A",s="x y"} 0 0.999
            oavt_events_total{action="A",s="x y"} 1 1.000
            oavt_events_total{action="A",s="x y"} 2 2.000
            oavt_events_total{action="B",s="x y"} 0 0.999
            oavt_events_total{action="B",s="x y"} 1 1.500
            # EOF

            """
        XCTAssertEqual(try merged([interleaved]), grouped)
        XCTAssertEqual(try merged([interleaved], spillThreshold: 1), grouped, "every line spilled")
        XCTAssertEqual(try merged([interleaved], spillThreshold: 100), grouped, "some lines spilled")
    }

    func testNothingWrittenIsAnEmptyText() throws {
        XCTAssertEqual(try merged([]), "# EOF\n")
    }
}
