import AVTCore
import AVTJSON
import XCTest

@testable import AVTOutput

/// How names are written so InfluxDB stores them as given. Each expectation follows a rule
/// measured by writing the line to InfluxDB 1.6 and reading the name back (`SHOW FIELD KEYS`,
/// `SHOW TAG VALUES`, `SHOW MEASUREMENTS`); InfluxServerTests round-trips them through the server.
final class InfluxNameTests: XCTestCase {
    private func name(_ text: String, _ place: InfluxLineWriter.NamePlace) -> (String, InfluxLineWriter.Rewrite) {
        var w = JSONBuffer()
        let rewrite = InfluxLineWriter.name(text, as: place, into: &w)
        return (String(decoding: w.bytes, as: UTF8.self), rewrite)
    }

    func testBackslashesAreKeptAsTheyAre() {
        // 1.6 keeps a backslash that escapes nothing; `a\\b` would be stored with two.
        XCTAssertEqual(name(#"a\b"#, .tagValue).0, #"a\b"#)
        XCTAssertEqual(name(#"a\b"#, .fieldKey).0, #"a\b"#)
        XCTAssertEqual(name(#"a\b"#, .measurement).0, #"a\b"#)
        XCTAssertEqual(name(#"a\b"#, .fieldKey).1, [])
        // Tag keys and values read `\\,` as a backslash then an escaped comma: exact.
        XCTAssertEqual(name(#"a\,b"#, .tagValue).0, #"a\\,b"#)
        XCTAssertEqual(name(#"a\=b"#, .tagKey).0, #"a\\=b"#)
    }

    func testSpecialsAreEscaped() {
        XCTAssertEqual(name("a,b c=d", .fieldKey).0, #"a\,b\ c\=d"#)
        XCTAssertEqual(name("a,b c=d", .measurement).0, #"a\,b\ c=d"#)
        // A tab and a double quote need nothing.
        XCTAssertEqual(name("a\tb\"c", .fieldKey).0, "a\tb\"c")
    }

    func testWhatLineProtocolCannotCarryIsReplacedAndReported() {
        // A trailing backslash would escape the `=`, space or comma after it.
        XCTAssertEqual(name(#"ab\"#, .fieldKey).0, #"ab\_"#)
        XCTAssertEqual(name(#"ab\"#, .tagValue).0, #"ab\_"#)
        XCTAssertEqual(name(#"ab\"#, .fieldKey).1, .replaced)
        // In a field key `\\,` is not read as a backslash and a comma, and `\"` is read as `"`.
        XCTAssertEqual(name(#"a\,b"#, .fieldKey).0, #"a\_\,b"#)
        XCTAssertEqual(name(#"a\"b"#, .fieldKey).0, #"a\_"b"#)
        XCTAssertEqual(name(#"a\ b"#, .measurement).0, #"a\_\ b"#)
        XCTAssertEqual(name("a\nb\rc", .tagValue).0, #"a\nb\rc"#)
        XCTAssertEqual(name("a\nb", .tagValue).1, .replaced)
        // InfluxDB drops a field named time (answering 204).
        XCTAssertEqual(name("time", .fieldKey).0, "time_")
        XCTAssertEqual(name("time", .fieldKey).1, .renamedTime)
        XCTAssertEqual(name("time", .tagValue).0, "time")
    }

    func testRewritesAreCountedPerPointAndWarnedOnce() {
        let encoder = InfluxLineEncoder()
        var writer = InfluxLineWriter(encoder: encoder, records: RecordEncoder(trackerNames: ["t"], startTime: 0))
        var w = JSONBuffer()
        for t in 0..<3 {
            writer.write(
                Event(
                    action: Action("Ping"), timestamp: t, trackerId: 0, attributes: ["time": .int(1), "x\n": .int(2)]),
                into: &w)
        }
        writer.write(Event(action: Action("Ping"), timestamp: 9, trackerId: 0, attributes: ["ok": .int(1)]), into: &w)
        XCTAssertEqual(encoder.rewrites.replaced, 3)
        XCTAssertEqual(encoder.rewrites.renamed, 3)
        XCTAssertEqual(encoder.rewrites.warnings.count, 2)
        XCTAssertTrue(encoder.rewrites.warnings[1].hasPrefix("3 InfluxDB points have a field named time"))
    }

    func testCompatCountsPointsOverwrittenByALaterOneOfTheSameInstant() {
        var encoder = InfluxLineEncoder()
        encoder.compat = true
        var writer = InfluxLineWriter(encoder: encoder, records: RecordEncoder(trackerNames: ["t"], startTime: 0))
        var w = JSONBuffer()
        // Events at 0, 0, 100 and metrics at 0, 100, 100: one event and one metric are replaced.
        for t in [0, 0, 100] { writer.write(Event(action: Action("Ping"), timestamp: t, trackerId: 0), into: &w) }
        for t in [0, 100, 100] { writer.write(Metric.numPlays(at: t), into: &w) }
        XCTAssertEqual(writer.compatOverwritten, 2)
    }
}
