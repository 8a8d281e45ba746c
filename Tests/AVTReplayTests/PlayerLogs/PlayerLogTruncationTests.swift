import Foundation
import XCTest

@testable import AVTTimeline

/// Every player-log fixture cut at every byte, as bug-report pastes are cut: each reader reads
/// what it can or refuses with a located message (never a crash, a hang or another error), and a
/// cut inside an event's brackets is warned about with its line.
final class PlayerLogTruncationTests: XCTestCase {
    private typealias Support = PlayerLogTestSupport

    /// The outcome of reading one cut: the steps read, the warnings, or the refusal.
    private func read(_ bytes: ArraySlice<UInt8>, format: TimelineFormat) -> (steps: Int, warnings: [String])? {
        let box = WarningBox()
        do {
            var source = try TimelineReader.open(
                ByteInput(bytes: Array(bytes), name: "cut.log"), format: format, csvTrackers: [], warn: box.add)
            var steps = 0
            while try source.nextStep() != nil { steps += 1 }
            return (steps, box.warnings)
        } catch {
            XCTAssertTrue(error.description.hasPrefix("cut.log"), "a refusal names the file: \(error)")
            return nil
        }
    }

    func testEveryCutOfEveryPlayerLogReadsOrIsRefusedWithAMessage() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Support.fixtures.path).sorted()
        XCTAssertGreaterThanOrEqual(files.count, 11)
        var (cuts, cutEvents) = (0, 0)
        for name in files {
            let bytes = Array(try Data(contentsOf: Support.fixtures.appendingPathComponent(name)))
            let format = TimelineFormat.sniff(Array(bytes.prefix(1 << 16)))
            XCTAssertTrue(format.isPlayerLog, name)
            var whole: Int?
            for end in stride(from: bytes.count, through: 1, by: -1) {
                let outcome = read(bytes[..<end], format: format)
                if end == bytes.count { whole = outcome?.steps }
                cuts += 1
                guard format == .exoplayerLog, let outcome else { continue }
                // A cut inside an EventLogger event's brackets: that line is named in a warning.
                let lineStart = bytes[..<end].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
                let line = String(decoding: bytes[lineStart..<end], as: UTF8.self)
                let number = bytes[..<lineStart].filter { $0 == 0x0A }.count + 1
                if line.contains("EventLogger"), let open = line.firstIndex(of: "["), !line[open...].contains("]"),
                    line.contains("state [") || line.contains("isPlaying [")
                {
                    cutEvents += 1
                    XCTAssertTrue(
                        outcome.warnings.contains { $0.contains("cut.log:\(number):") },
                        "\(name) cut at \(end): \(outcome.warnings)")
                }
            }
            XCTAssertNotNil(whole, "\(name) reads whole")
        }
        XCTAssertGreaterThan(cutEvents, 500, "cuts inside state and isPlaying lines were checked")
        XCTAssertEqual(
            cuts,
            files.reduce(0) { sum, name in
                sum + ((try? Data(contentsOf: Support.fixtures.appendingPathComponent(name)).count) ?? 0)
            })
    }
}
