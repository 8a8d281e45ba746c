import AVTReplay
import AVTTimeline
import XCTest

@testable import AVTOutput

/// `--label NAME=VALUE`: names as Prometheus defines them (data model: `[a-zA-Z_][a-zA-Z0-9_]*`,
/// `__` reserved), values non-empty, no name twice or shadowing avtreplay's own labels.
final class SeriesLabelsTests: XCTestCase {
    func testLabelsKeepTheirOrder() throws {
        let labels = try SeriesLabels(parsing: ["run=baseline", "env=ci", "_x9=a=b"])
        XCTAssertEqual(labels.pairs.map(\.name), ["run", "env", "_x9"])
        XCTAssertEqual(labels.pairs.map(\.value), ["baseline", "ci", "a=b"])
        XCTAssertTrue(labels.session)
        XCTAssertFalse(try SeriesLabels(parsing: [], session: false).session)
    }

    func testBadLabelsAreRefusedWithWhatWasExpected() {
        let cases: [(String, String)] = [
            ("run", "expected NAME=VALUE"), ("9run=a", "not a Prometheus label name"),
            ("run-id=a", "not a Prometheus label name"), ("__name__=a", "not a Prometheus label name"),
            ("=a", "not a Prometheus label name"), ("run=", "the value is empty"),
            ("session=a", "one of avtreplay's own labels"), ("tracker=a", "one of avtreplay's own labels"),
            ("run=a\nb", "control character"),
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try SeriesLabels(parsing: [text]), text) { error in
                let message = (error as? UsageError)?.message ?? ""
                XCTAssertTrue(message.hasPrefix("--label \(text):"), message)
                XCTAssertTrue(message.contains(expected), message)
            }
        }
        XCTAssertThrowsError(try SeriesLabels(parsing: ["run=a", "run=b"])) { error in
            XCTAssertTrue((error as? UsageError)?.message.contains("given twice") == true)
        }
    }

    func testASessionIsNamedRelativeToTheFolderGiven() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("labels-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("sub"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        XCTAssertEqual(SessionDiscovery.name(of: dir.path + "/sub/s1.json", inputs: [dir.path]), "sub/s1.json")
        XCTAssertEqual(SessionDiscovery.name(of: dir.path + "/s1.json", inputs: [dir.path + "/"]), "s1.json")
        // A file named on the command line keeps its path, without `./`.
        XCTAssertEqual(SessionDiscovery.name(of: "./a/s1.json", inputs: ["./a/s1.json", "b.json"]), "a/s1.json")
    }
}
