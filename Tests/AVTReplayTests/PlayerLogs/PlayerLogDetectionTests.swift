import Foundation
import XCTest

@testable import AVTReplay
@testable import AVTTimeline

/// Player logs are detected from their content, whatever their name, and timelines still are
/// what they were.
final class PlayerLogDetectionTests: XCTestCase {
    private func sniff(_ text: String) -> TimelineFormat { TimelineFormat.sniff(Array(text.utf8)) }

    func testEveryFixtureIsDetected() throws {
        let expected: [String: TimelineFormat] = [
            "exoplayer-media3-threadtime.log": .exoplayerLog, "exoplayer-2.11-studio-classic.log": .exoplayerLog,
            "exoplayer-2.9-brief.log": .exoplayerLog, "exoplayer-2.7-bare.log": .exoplayerLog,
            "exoplayer-studio-midsession-cut.log": .exoplayerLog, "exoplayer-interleaved-sessions.log": .exoplayerLog,
            "chrome-save-log.json": .chromeMediaLog, "chrome-players-map-cut.json": .chromeMediaLog,
            "chrome-table-old.txt": .chromeMediaLog, "chrome-table-tabs.txt": .chromeMediaLog,
            "avplayer-accesslog.log": .avplayerAccesslog,
        ]
        let names = try FileManager.default.contentsOfDirectory(atPath: PlayerLogTestSupport.fixtures.path)
        XCTAssertEqual(Set(names), Set(expected.keys))
        for (name, format) in expected {
            let bytes = try ByteInput(path: PlayerLogTestSupport.fixture(name)).peek(1 << 16)
            XCTAssertEqual(TimelineFormat.sniff(bytes), format, name)
            // A `.json` Chrome log is not read as a JSON timeline.
            let source = try TimelineReader.open(
                PlayerLogTestSupport.fixture(name), format: nil, csvTrackers: [], warn: { _ in })
            XCTAssertFalse(source is DocumentSource, name)
        }
    }

    func testTimelinesAreStillTimelines() {
        XCTAssertEqual(sniff("t,tracker,action\n0,content,Start\n"), .csv)
        XCTAssertEqual(sniff("#avtreplay {\"trackers\": []}\nt,tracker\n"), .csv)
        XCTAssertEqual(sniff("{\"trackers\": [{\"name\": \"c\"}], \"steps\": []}"), .json)
        XCTAssertEqual(sniff("{\"trackers\": [{\"name\": \"c\"}]}\n{\"t\": 0}\n"), .jsonl)
        XCTAssertEqual(sniff("hello\n"), .csv, "unknown text stays CSV, whose reader says what is wrong")
        XCTAssertEqual(sniff("#Software: AppleCoreMedia/1.0\n#Fields: date time\n"), .avplayerAccesslog)
        // An app's own line before the dump: the header naming cs-guid tells.
        XCTAssertEqual(
            sniff(
                "2025-11-03 20:14:50.123456+0100 Player[4242:1893321] access log:\n#Version: 1.0\n"
                    + "#Fields: date time uri cs-guid c-duration-watched\n"),
            .avplayerAccesslog)
        XCTAssertEqual(sniff("note\n#Fields: date time uri\n"), .csv, "no cs-guid: not an access log header")
        XCTAssertEqual(sniff("EventLogger: state [3.22, true, B]\n"), .exoplayerLog)
        XCTAssertEqual(sniff("[{\"properties\": {}, \"events\": []}]"), .chromeMediaLog)
    }

    func testFormatsByName() {
        XCTAssertEqual(TimelineFormat(rawValue: "exoplayer-log"), .exoplayerLog)
        XCTAssertEqual(TimelineFormat(rawValue: "chrome-media-log"), .chromeMediaLog)
        XCTAssertEqual(TimelineFormat(rawValue: "avplayer-accesslog"), .avplayerAccesslog)
        XCTAssertFalse(TimelineFormat.exoplayerLog.isWritable)
        XCTAssertTrue(TimelineFormat.csv.isWritable)
    }
}
