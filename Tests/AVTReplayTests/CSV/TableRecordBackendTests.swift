import AVTCore
import AVTJSON
import Foundation
import XCTest

@testable import AVTOutput

/// `--format table`: aligned lines for people; colour only when asked.
final class TableRecordBackendTests: XCTestCase {
    func testExactOutputOfASmallReplay() throws {
        let table = try BackendHarness.run { TableRecordBackend(sink: $0, encoder: $1, filter: $2, color: false) }
        XCTAssertEqual(
            table,
            #"""
                    t  type    action/metric        tracker    details
                0.000  metric  NumLoads                        counter +1
                0.000  event   StreamLoad           content    flag="true" fps=25.0 playbackId=06C45D18… streamId=1B39896A… title="Big \"Buck\", Bunny"
                1.500  metric  StartTime                       gauge = 1500
                1.500  metric  NumPlays                        counter +1
                1.500  event   Start                content    [play] countStarts=1 isLive=true note=""
                2.100  metric  PlayTime                        gauge = 600
                2.100  event   BufferBegin          content    [play buffer]
                2.350  metric  RebufferTime                    gauge = 250
                2.350  metric  NumRebuffers                    counter +1
                2.350  event   BufferFinish         content    took 250ms [play] accumBufferTime=250

            """#)
    }

    func testBundledFixturesReadWell() throws {
        let happy = try BackendHarness.run(try BackendHarness.fixture("happy-path")) {
            TableRecordBackend(sink: $0, encoder: $1, filter: $2, color: false)
        }
        let lines = happy.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 34, "a header and one line per record")
        XCTAssertEqual(lines[1], "    0.000  event   TrackerInit          content", "no trailing spaces")
        XCTAssertTrue(
            lines.contains(
                "   52.700  event   SeekFinish           content    took 700ms [play pause buffer] accumSeekTime=700 position=90000"
            ))
        XCTAssertTrue(lines.allSatisfy { !$0.hasSuffix(" ") })
        let ads = try BackendHarness.run(try BackendHarness.fixture("preroll-ads")) {
            TableRecordBackend(sink: $0, encoder: $1, filter: $2, color: false)
        }
        XCTAssertTrue(
            ads.contains(
                "    0.300  event   AdBreakBegin         ads        [break] adDuration=15000 adId=ad-1 adRoll=pre\n"),
            ads)
        XCTAssertTrue(ads.contains("   15.450  event   AdFinish             ads        took 15000ms [break]\n"), ads)
    }

    func testColourOnlyWhenAsked() throws {
        let plain = try BackendHarness.run { TableRecordBackend(sink: $0, encoder: $1, filter: $2, color: false) }
        XCTAssertFalse(plain.contains("\u{1B}"))
        let colored = try BackendHarness.run { TableRecordBackend(sink: $0, encoder: $1, filter: $2, color: true) }
        XCTAssertTrue(colored.contains("\u{1B}[1;32mStart"), "Start in bold green")
        XCTAssertTrue(colored.contains("\u{1B}[36mmetric"), "metrics in cyan")
        XCTAssertTrue(colored.contains("\u{1B}[0m"))
        // Without the escape sequences, the coloured table is the plain one.
        let stripped = colored.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        XCTAssertEqual(stripped, plain)
    }

    func testSessionsAndFilters() throws {
        let table = try BackendHarness.run(filter: RecordFilter(metrics: false), session: "a.json") {
            TableRecordBackend(sink: $0, encoder: $1, filter: $2)
        }
        let lines = table.split(separator: "\n")
        XCTAssertEqual(lines[0], "== a.json ==")
        XCTAssertEqual(lines.count, 2 + 4)
        XCTAssertFalse(table.contains("  metric  "))
    }

    func testSecondsAndValues() {
        XCTAssertEqual(TableRecordBackend.seconds(0), "0.000")
        XCTAssertEqual(TableRecordBackend.seconds(1_234_567), "1234.567")
        XCTAssertEqual(TableRecordBackend.seconds(5), "0.005")
        XCTAssertEqual(TableRecordBackend.show(.string("12"), identifier: false), "\"12\"")
        XCTAssertEqual(TableRecordBackend.show(.string(String(repeating: "x", count: 50)), identifier: false).count, 40)
        XCTAssertEqual(TableRecordBackend.show(.double(25), identifier: false), "25.0")
    }
}
