import XCTest

@testable import AVTTimeline

/// The EventLogger line scanner jumps from bracket to bracket and from comma to comma (memchr)
/// instead of reading every byte: whether a line's brackets close, where its header tokens end,
/// and where `[ExoPlayerLib/` stands must be what a byte-by-byte reading finds, for lines cut
/// at every byte and brackets nested, unbalanced or at the very end.
final class EventLoggerLineScanTests: XCTestCase {
    private static func parse(_ text: String) -> EventLoggerLine {
        Array(text.utf8).withUnsafeBufferPointer { buffer in
            var line = EventLoggerLine.parse(buffer)
            line.readDetails(buffer)
            return line
        }
    }

    /// Byte by byte: whether the bracket opened before `start` closes, counting nested ones.
    private static func referenceClosed(_ bytes: [UInt8], from start: Int, end: Int) -> Bool {
        var depth = 1
        for byte in bytes[start..<end] {
            if byte == UInt8(ascii: "[") { depth += 1 }
            if byte == UInt8(ascii: "]") { depth -= 1 }
            if depth == 0 { return true }
        }
        return false
    }

    private static let lines = [
        "03-14 10:21:47.041 19692 19750 D EventLogger: state [eventTime=1.96, mediaPos=0.00, window=0, period=0, READY]",
        "D EventLogger: positionDiscontinuity [eventTime=5.00, mediaPos=1.00, window=0, reason=SEEK, "
            + "PositionInfo:old [window=0, period=0, pos=1000], PositionInfo:new [window=0, period=0, pos=9000]]",
        "D EventLogger: tracks [eventTime=0.50, mediaPos=0.00, window=0, period=0",
        "D EventLogger: downstreamFormat [eventTime=2.00, mediaPos=0.00, window=0, period=0, id=1,mimeType=video/avc,"
            + "bitrate=800000,res=1280x720]  ",
        "D/EventLogger( 9578): decoderInitialized [1.96, 0.50, window=0, period=0, video, OMX.x]",
        "EventLogger: state [3.22, true, B]",
        "EventLogger: loadError [eventTime=9.00, mediaPos=0.00, window=0, period=0, [[nested]], ]]]",
        "I ExoPlayerImpl: Init 5a3b [ExoPlayerLib/2.18.1] [generic, sdk_gphone, Google, 30] [AndroidXMedia3/1.0]",
        "I ExoPlayerImpl: Release 5a3b [[[ [AndroidXMedia3/1.1.0] [ExoPlayerLib/",
        "I ExoPlayerImpl: Init 5a3b [ExoPlayerLib",
    ]

    func testTheBracketsCloseWhereAByteReadingClosesThem() {
        var events = 0
        for text in Self.lines {
            let bytes = Array(text.utf8)
            for cut in 0...bytes.count {
                let prefix = String(decoding: bytes[..<cut], as: UTF8.self)
                let line = Self.parse(prefix)
                guard line.kind == .event else { continue }
                events += 1
                let cutBytes = Array(prefix.utf8)
                // The content starts after `NAME [`, the first bracket after the message start.
                let open = cutBytes[line.messageStart...].firstIndex(of: UInt8(ascii: "["))!
                var end = cutBytes.count
                while end > 0, [0x20, 0x09, 0x0D].contains(cutBytes[end - 1]) { end -= 1 }
                XCTAssertEqual(
                    line.closed, Self.referenceClosed(cutBytes, from: open + 1, end: end), prefix.debugDescription)
            }
        }
        XCTAssertGreaterThan(events, 400)
    }

    func testHeadersAndDetailsByHand() {
        let seek = Self.parse(Self.lines[1])
        XCTAssertTrue(seek.closed)
        XCTAssertEqual(seek.eventTime, 5000)
        XCTAssertEqual(seek.mediaPos, 1000)
        XCTAssertEqual(seek.details.first, "reason=SEEK")
        XCTAssertTrue(seek.detailText.hasSuffix("pos=9000]"), "\(seek.detailText)")
        let open = Self.parse(Self.lines[2])
        XCTAssertFalse(open.closed)
        XCTAssertEqual(open.eventTime, 500)
        // Commas without a blank do not split header tokens: one detail of many fields.
        let format = Self.parse(Self.lines[3])
        XCTAssertTrue(format.closed)
        XCTAssertEqual(format.details, ["id=1,mimeType=video/avc,bitrate=800000,res=1280x720"])
        let unbalanced = Self.parse(Self.lines[6])
        XCTAssertTrue(unbalanced.closed, "the nested [[…]] close, then the event's own ]")
        XCTAssertEqual(unbalanced.eventTime, 9000)
    }

    func testPlayerInitAndReleaseMarkersAnywhereInTheLine() {
        XCTAssertEqual(Self.parse(Self.lines[7]).kind, .playerInit)
        XCTAssertEqual(Self.parse(Self.lines[8]).kind, .playerRelease, "a marker at the very end of the line")
        XCTAssertEqual(Self.parse(Self.lines[9]).kind, .other, "a marker cut short")
        XCTAssertEqual(Self.parse("I ExoPlayerImpl: Init [ExoPlayerLib/").kind, .playerInit)
        XCTAssertEqual(Self.parse("[ExoPlayerLib/").kind, .other, "no Init or Release before it")
        XCTAssertEqual(Self.parse("").kind, .other)
    }
}
