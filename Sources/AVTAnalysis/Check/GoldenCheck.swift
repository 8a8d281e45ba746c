import AVTOutput
import AVTReplay
import AVTTimeline
import AVTTrackers
import Foundation

/// `check`: replays each timeline and compares what it produces with its golden file, or, when
/// updating, rewrites the golden file and says what that changed.
package struct GoldenCheck {
    /// The expected output of a single timeline (`--expect`); nil for each one's golden file.
    package var expect: String?
    package var comparison = ComparisonOptions()
    package var csvTrackers: [TrackerSpec] = []

    package init() {}

    /// One case per timeline; a timeline that cannot be read or replayed is an error case.
    package func compare(_ paths: [String]) -> [CheckCase] {
        paths.map { path in
            let started = Date()
            let outcome: CheckCase.Outcome
            do {
                let actual = try OutputLog.read(ByteInput(bytes: try produce(path), name: path))
                let expected = try OutputLog.read(path: expect ?? GoldenFiles.expectedPath(for: path))
                outcome = .compared(RecordComparator.compare(expected: expected, actual: actual, options: comparison))
            } catch {
                outcome = .error(Self.message(error))
            }
            return CheckCase(name: path, seconds: Date().timeIntervalSince(started), outcome: outcome)
        }
    }

    /// Rewrites each golden file, calling `changed` with what that did (`created …`, `unchanged …`,
    /// `updated …: summary`); the timelines that failed are error cases.
    package func update(_ paths: [String], changed: (String) -> Void) -> [CheckCase] {
        paths.compactMap { path in
            let started = Date()
            do {
                changed(try update(path, expectedPath: expect ?? GoldenFiles.expectedPath(for: path)))
                return nil
            } catch {
                return CheckCase(
                    name: path, seconds: Date().timeIntervalSince(started), outcome: .error(Self.message(error)))
            }
        }
    }

    private func produce(_ path: String) throws -> [UInt8] {
        try GoldenFiles.produce(path, options: RunOptions(), csvTrackers: csvTrackers)
    }

    private func update(_ path: String, expectedPath: String) throws -> String {
        let produced = try produce(path)
        let actual = try OutputLog.read(ByteInput(bytes: produced, name: path))
        let previous = try? OutputLog.read(path: expectedPath)
        let sink = try AtomicFileSink(path: expectedPath)
        try sink.write(produced)
        try sink.close()
        guard let previous else { return "created \(expectedPath): \(actual.count) records" }
        let comparison = RecordComparator.compare(expected: previous, actual: actual, options: ComparisonOptions())
        return comparison.isEqual ? "unchanged \(expectedPath)" : "updated \(expectedPath): \(comparison.summary)"
    }

    private static func message(_ error: any Error) -> String {
        (error as? TimelineError)?.description ?? "\(error)"
    }
}
