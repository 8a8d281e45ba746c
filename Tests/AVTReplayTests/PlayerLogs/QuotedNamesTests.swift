import XCTest

@testable import AVTTimeline

/// The one-pass search for the names that tell a Chrome log from a timeline finds exactly what a
/// substring search for each `"name"` finds, wherever it falls (cut at the end, after escapes).
final class QuotedNamesTests: XCTestCase {
    private let names: [(PlayerLogSniffer.Names, String)] = [
        (.allEvents, #""allEvents""#), (.firstTimestamp, #""firstTimestamp_""#), (.steps, #""steps""#),
        (.events, #""events""#), (.properties, #""properties""#), (.key, #""key""#), (.tracker, #""tracker""#),
    ]

    func testEqualsASubstringSearchForEachName() {
        var generator = SystemRandomNumberGenerator()
        let pieces = [
            #""key""#, #""steps""#, #""tracker""#, #""events""#, #""properties""#, #""allEvents""#,
            #""firstTimestamp_""#, #"""#, #"\""#, "x", ":", " ", "{", "}", #""ke"#, #"y""#, #""step"#,
        ]
        for _ in 0..<2000 {
            let text = (0..<Int.random(in: 0...12, using: &generator)).map { _ in
                pieces.randomElement(using: &generator)!
            }.joined()
            let bytes = Array(text.utf8)
            let found = PlayerLogSniffer.quoted(in: bytes[...])
            for (name, needle) in names {
                XCTAssertEqual(found.contains(name), bytes.firstRange(of: Array(needle.utf8)) != nil, text)
            }
        }
    }
}
