import AVTCore
import Foundation
import XCTest

@testable import AVTOutput
@testable import AVTReplay
@testable import AVTTimeline

/// Every file in Corpus/ is malformed in one way. Each must be refused with a TimelineError that
/// names the file (and a line where there is one) — never a crash, never a replay.
final class MalformedCorpusTests: XCTestCase {
    private var corpus: [URL] {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Corpus")
        return ((try? FileManager.default.contentsOfDirectory(at: dir, includingPropertiesForKeys: nil)) ?? [])
            .sorted { $0.path < $1.path }
    }

    private final class Discard: Backend {
        func sendEvent(_ event: Event) {}
        func sendMetric(_ metric: Metric) {}
    }

    func testEveryMalformedInputIsRefusedWithALocatedMessage() throws {
        XCTAssertGreaterThanOrEqual(corpus.count, 20)
        for url in corpus {
            do {
                var source = try TimelineReader.open(url.path)
                _ = try Replayer.replay(&source, options: RunOptions(), backend: Discard())
                XCTFail("\(url.lastPathComponent) replayed")
            } catch let error as TimelineError {
                XCTAssertEqual(error.file, url.path, url.lastPathComponent)
                XCTAssertFalse(error.message.isEmpty)
                let sizeOfFile = (try? Data(contentsOf: url).count) ?? 0
                let blank = (try? String(contentsOf: url, encoding: .utf8))?.allSatisfy(\.isWhitespace) ?? false
                if sizeOfFile > 0, !blank {
                    XCTAssertNotNil(error.location, "\(url.lastPathComponent): \(error)")
                }
            } catch {
                XCTFail("\(url.lastPathComponent): unexpected \(error)")
            }
        }
    }

    /// Found by scripts/fuzz: a huge video size overflowed width × height in the quality check.
    func testHugeVideoSizesCompareWithoutOverflow() throws {
        let refused = """
            {"trackers": [{"name": "c", "kind": "exoplayer"}], "steps": [
              {"t": 1, "tracker": "c", "observe": {"videoSize": {"width": 8900719925474099354, "height": 480}}}]}
            """
        XCTAssertThrowsError(try TimelineDecoder.decode(Array(refused.utf8), file: "t.json")) {
            XCTAssertTrue("\($0)".contains("steps[0].observe.videoSize.width: expected an integer of at most 2^53 − 1"))
        }
        // The largest sizes a timeline may hold: their products still pass Int's range.
        let text = """
            {"trackers": [{"name": "c", "kind": "exoplayer"}], "steps": [
              {"t": 0, "tracker": "c", "observe": {"videoSize": {"width": 1280, "height": 720}}},
              {"t": 1, "tracker": "c", "observe": {"videoSize": {"width": 9007199254740991, "height": 480}}},
              {"t": 2, "tracker": "c", "observe": {"videoSize": {"width": -9007199254740991, "height": 9007199254740991}}}]}
            """
        let timeline = try TimelineDecoder.decode(Array(text.utf8), file: "t.json")
        let sink = MemorySink()
        try Replayer.replayToJSONLines(timeline, options: RunOptions(), sink: sink)
        let actions = sink.text.split(separator: "\n").compactMap { line in
            line.range(of: #""action":"[A-Za-z]+""#, options: .regularExpression).map {
                String(line[$0].dropFirst(10).dropLast())
            }
        }
        XCTAssertEqual(actions.filter { $0.hasPrefix("QualityChange") }, ["QualityChangeUp", "QualityChangeDown"])
    }
}
