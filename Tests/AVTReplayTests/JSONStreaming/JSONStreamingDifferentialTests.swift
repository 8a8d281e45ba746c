import AVTCore
import AVTJSON
import XCTest

@testable import AVTTimeline

/// Mutated documents through the streamed reader and the whole-document decoder: the same steps
/// and settings, or the same error (a step's error before a syntax error further on aside).
final class JSONStreamingDifferentialTests: XCTestCase {
    private static let seeds: [String] = [
        "{\"startTime\": \"2026-03-01T12:00:00Z\", \(JSONTimelineReaderTests.trackers),\n\(JSONTimelineReaderTests.steps)}",
        "{\(JSONTimelineReaderTests.steps), \(JSONTimelineReaderTests.trackers), \"until\": 35, \"hub\": \"core\"}",
        #"{"trackers":[{"name":"c","kind":"html5"}],"steps":[{"t":0,"tracker":"c","observe":{"event":"loadstart"}},"#
            + #"{"t":5,"tracker":"c","set":{"a":"x"},"action":"Start"}],"metrics":true}"#,
    ]

    private static let tokens: [String] = [
        "{", "}", "[", "]", ",", ":", "\"", "\\", "\n", " ", "-", "0", "1.5", "null", "true", "\"t\"", "\"steps\"",
        "\"trackers\"", "\"until\"", "\"set\"", "\u{FEFF}", "é", "\u{01}", "[[[[", "]]",
    ]

    private func mutate(_ input: [UInt8], using rng: inout SplitMix64) -> [UInt8] {
        var bytes = input
        for _ in 0..<Int.random(in: 1...3, using: &rng) {
            let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &rng)
            switch Int.random(in: 0..<5, using: &rng) {
            case 0 where !bytes.isEmpty: bytes[position] = UInt8.random(in: 0...255, using: &rng)
            case 1 where !bytes.isEmpty: bytes.remove(at: position)
            case 2:
                let token = Self.tokens[Int.random(in: 0..<Self.tokens.count, using: &rng)]
                bytes.insert(contentsOf: Array(token.utf8), at: position)
            case 3 where !bytes.isEmpty:
                bytes.removeSubrange(position..<min(bytes.count, position + Int.random(in: 1...12, using: &rng)))
            default:
                if !bytes.isEmpty { bytes[position] ^= 1 << UInt8.random(in: 0...7, using: &rng) }
            }
        }
        return bytes
    }

    func testMutatedDocumentsReadAsTheWholeDocumentDecoderReadsThem() {
        var rng = SplitMix64(seed: 20_261_127)
        var failures = 0
        for iteration in 0..<3000 {
            let seed = Array(Self.seeds[iteration % Self.seeds.count].utf8)
            let bytes = iteration < Self.seeds.count ? seed : mutate(seed, using: &rng)
            let whole = JSONStreaming.whole(bytes)
            let chunk = [1, 3, 16, 1 << 18][iteration % 4]
            if let mismatch = JSONStreaming.mismatch(JSONStreaming.stream(bytes, chunk: chunk), whole) {
                failures += 1
                if failures <= 10 {
                    XCTFail("\(iteration), chunk \(chunk): \(mismatch)\n\(String(decoding: bytes, as: UTF8.self))")
                }
            }
        }
        XCTAssertEqual(failures, 0)
    }
}
