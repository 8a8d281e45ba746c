import AVTCore
import XCTest

@testable import AVTKPI
@testable import AVTOutput
@testable import AVTReplay
@testable import AVTTimeline

/// `kpi` folds each playback into its figures once another one took over on its tracker, and
/// lets its history go: the KPIs are those of the session kept whole, the history holds the
/// playbacks under way only.
final class KPIFoldTests: XCTestCase {
    /// 300 playbacks on a generic tracker (request, load, join, start, a rebuffer, a pause, an
    /// end or an abandon), interleaved with an AVPlayer tracker's playbacks and an ad break.
    private static func timeline() -> String {
        var steps: [(Int, String)] = []
        func c(_ t: Int, _ action: String) { steps.append((t, KPITestSupport.step(t, action, "c"))) }
        func p(_ t: Int, _ observe: String) { steps.append((t, KPITestSupport.observe(t, observe, "p"))) }
        var t = 0
        for n in 0..<300 {
            c(t, "MediaRequest")
            c(t + 100, "StreamLoad")
            c(t + 150, "BufferBegin")
            c(t + 900 + n, "BufferFinish")
            c(t + 950 + n, "Start")
            c(t + 5000, "BufferBegin")
            c(t + 5300 + 7 * n, "BufferFinish")
            c(t + 8000, "PauseBegin")
            c(t + 9000, "PauseFinish")
            if n % 50 == 7 {
                c(t + 9500, "AdBreakBegin")
                c(t + 9600, "AdBreakFinish")
            }
            if n % 3 != 0 { c(t + 12000, "End") }
            if n % 10 == 0 {
                p(t + 1, #""source": "https://e.com/\#(n).m3u8", "currentTime": 0"#)
                p(t + 200, #""status": "readyToPlay", "rate": 1, "timeControlStatus": "playing""#)
                p(t + 4000, #""timeControlStatus": "waitingToPlayAtSpecifiedRate""#)
                p(t + 4600, #""timeControlStatus": "playing""#)
            }
            t += 13000
        }
        // In time order; steps at the same instant keep the order they were written in.
        return steps.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }.map(\.element.1)
            .joined(separator: ",")
    }

    private func replay(folding: Bool) throws -> (SessionKPIs, SessionHistory, [(String, PlaybackFigures)]) {
        let text = #"{"trackers": [{"name": "c"}, {"name": "p", "kind": "avplayer"}], "steps": [\#(Self.timeline())]}"#
        let timeline = try TimelineDecoder.decode(Array(text.utf8), file: "t.json")
        var source = DocumentSource(timeline, name: "t.json")
        var folded: [(String, PlaybackFigures)] = []
        let (kpis, history) = try KPISessions.replay(
            &source, session: "t.json", folded: folding ? { _, id, figures in folded.append((id, figures)) } : nil)
        return (kpis, history, folded)
    }

    func testFoldedPlaybacksGiveTheKPIsOfTheWholeSession() throws {
        let (whole, _, none) = try replay(folding: false)
        XCTAssertTrue(none.isEmpty)
        XCTAssertEqual(whole.playbackIds.count, 330)
        let (rest, history, folded) = try replay(folding: true)
        // Playbacks are folded oldest first (they are printed in the order they began): the
        // AVPlayer's last one (begun with the generic tracker's 291st) is under way at the end,
        // so it and the 9 generic ones that began after it are kept, and the 320 before it folded.
        XCTAssertEqual(folded.count, 320)
        XCTAssertEqual(rest.playbackIds.count, 10)
        XCTAssertEqual(history.playbacks.kept.count, 10)
        XCTAssertEqual(folded.map(\.0) + rest.playbackIds, whole.playbackIds)
        for definitions in KPIDefinitions.allCases {
            var pooled = PlaybackFigures()
            for (n, id) in whole.playbackIds.enumerated() {
                let figures = n < folded.count ? folded[n].1 : rest.figures[n - folded.count]
                pooled.merge(figures)
                XCTAssertEqual(
                    KPICalculator.values(figures, definitions, flags: true),
                    whole.playback(id, definitions: definitions),
                    "\(definitions) playback \(n)")
            }
            XCTAssertEqual(
                KPICalculator.values(pooled, definitions, flags: false), whole.totals(definitions: definitions))
        }
    }

    /// The writer's table and CSV, a playback at a time, are `KPIReport`'s of the whole session.
    func testTheStreamedTextIsTheWholeSessionsText() throws {
        let (whole, _, _) = try replay(folding: false)
        let (rest, _, folded) = try replay(folding: true)
        for definitions in KPIDefinitions.allCases {
            for format in [KPIStreamWriter.Format.table, .csv] {
                var writer = KPIStreamWriter(format: format, definitions: definitions, aggregate: true)
                var bytes = writer.start()
                for (id, figures) in folded { writer.playback(id: id, figures: figures, session: "t.json") }
                try writer.finish(rest) { bytes += $0 }
                bytes += try writer.finish()
                let expected =
                    format == .csv
                    ? KPIReport.csv([whole], definitions: definitions, aggregate: true)
                    : KPIReport.table([whole], definitions: definitions, aggregate: true)
                XCTAssertEqual(String(decoding: bytes, as: UTF8.self), expected, "\(definitions) \(format)")
            }
        }
    }

    /// Past `KPIColumns.inMemory` values the aggregate's columns go to a temporary file; the
    /// statistics are those of the values kept in memory, and a session rolled back leaves none
    /// of its values behind.
    func testSpilledColumnsGiveTheSameStatistics() throws {
        let playbacks = KPIColumns.inMemory / 2 + 3000
        var spilled = KPIAggregator(definitions: .openavt, spills: true)
        var kept = KPIAggregator(definitions: .openavt)
        var all: [[KPI]] = []
        for n in 0..<playbacks {
            let values = [
                KPI("startupTime", .int((n * 7919) % 10007)), KPI("rebufferRatio", .double(Double(n % 97) / 97)),
            ]
            spilled.add(values: values)
            kept.add(values: values)
            all.append(values)
        }
        let mark = spilled.mark
        for n in 0..<(KPIColumns.inMemory) { spilled.add(values: [KPI("startupTime", .int(-n))]) }
        spilled.rollBack(to: mark)
        let expected = KPIAggregate.compute(all)
        for result in [try spilled.statistics(), try kept.statistics()] {
            XCTAssertEqual(result.map(\.0), expected.map(\.0))
            for (a, b) in zip(result, expected) {
                XCTAssertEqual(a.1.map(\.0), b.1.map(\.0))
                XCTAssertEqual(a.1.map(\.1), b.1.map(\.1), a.0)
            }
        }
        XCTAssertEqual(spilled.playbacks, playbacks)
    }
}
