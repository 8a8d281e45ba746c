import XCTest

@testable import AVTTimeline

/// The message of a throwable line after a load error or a player failure
/// (`com.example.SomeException: message`), read by bytes first and by Characters only where the
/// bytes match: the same answer as the plain Character reading, on lines of any length.
final class ExoPlayerThrowableMessageTests: XCTestCase {
    /// The plain Character reading, kept as the reference.
    private static func reference(_ text: String) -> String? {
        guard let range = text.firstRange(of: "Exception") ?? text.firstRange(of: "Error") else { return nil }
        if text.contains("\tat ") || text.contains(" at ") && text.hasSuffix(")") { return nil }
        var start = range.lowerBound
        while start > text.startIndex {
            let before = text[text.index(before: start)]
            guard before.isLetter || before.isNumber || before == "." || before == "$" || before == "_" else { break }
            start = text.index(before: start)
        }
        let message = text[start...].reversed().drop { $0 == " " || $0 == "\t" }.reversed()
        return message.isEmpty ? nil : String(String(message).prefix(500))
    }

    func testMessagesByHand() {
        let read = ExoPlayerLogReader.throwableMessage
        XCTAssertEqual(
            read("03-14 10:21:14.000 19692 19692 W System.err: java.io.IOException: unexpected end of stream  \t"),
            "java.io.IOException: unexpected end of stream")
        XCTAssertEqual(
            read("E/ExoPlayerImplInternal: Playback error: com.x.ExoPlaybackException$Source: 404"),
            "com.x.ExoPlaybackException$Source: 404")
        // A stack frame is no message.
        XCTAssertNil(read("\tat com.x.HttpDataSourceException.<init>(HttpDataSource.java:12)"))
        XCTAssertNil(read("W System.err:     at com.x.SomeError.run(Loader.java:3)"))
        XCTAssertNil(read("nothing here"))
        // At most 500 Characters of a long line.
        let long = "W: java.lang.IllegalStateException: " + String(repeating: "é", count: 2000)
        XCTAssertEqual(read(long)?.count, 500)
        XCTAssertEqual(
            read(long), String(("java.lang.IllegalStateException: " + String(repeating: "é", count: 2000)).prefix(500)))
    }

    /// Lines of every shape around the markers, the blanks and the 500-Character cut, with
    /// combining marks where a byte match is no Character match.
    func testTheSameAnswerAsTheCharacterReading() {
        let heads = ["", "W System.err: ", "\t", "x.y$Z_1", "é", "e\u{301}"]
        let markers = [
            "java.io.IOException", "Error", "SomeError", "Exception\u{301}", "Erro", "MediaCodec.CodecException",
        ]
        let tails = [
            "", ": gone", ": gone  \t ", "\tat a.b(C.java:1)", " at a.b(C.java:1)", " at a.b(C.java:1) ",
            " \u{301}", ": " + String(repeating: "ab ", count: 300), "   ", "\t",
        ]
        var count = 0
        for head in heads {
            for marker in markers {
                for tail in tails {
                    let text = head + marker + tail
                    XCTAssertEqual(
                        ExoPlayerLogReader.throwableMessage(text), Self.reference(text), text.debugDescription)
                    count += 1
                }
            }
        }
        XCTAssertEqual(count, 360)
    }

    func testContainsASCII() {
        XCTAssertTrue("abc\tat x".containsASCII("\tat "))
        XCTAssertFalse("abc\tatx".containsASCII("\tat "))
        XCTAssertTrue("Error".containsASCII("Error"))
        XCTAssertFalse("Erro".containsASCII("Error"))
        XCTAssertFalse("".containsASCII("E"))
        XCTAssertTrue("x".containsASCII(""))
        // Bytes, not Characters: an e with a combining accent still holds the byte "e".
        XCTAssertTrue("Exceptione\u{301}".containsASCII("Exceptione"))
        XCTAssertFalse("Exceptione\u{301}".contains("Exceptione"))
    }
}
