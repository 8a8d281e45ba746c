import AVTOutput
import AVTReplay
import AVTTimeline
import AVTTrackers
import Foundation

/// `check`: replays each timeline and compares what it produces with its golden file, or, when
/// updating, rewrites the golden files whose bytes differ and says what that changed.
package struct GoldenCheck: Sendable {
    package var comparison = ComparisonOptions()
    package var csvTrackers: [TrackerSpec] = []
    /// `--input-format`: every timeline is read in this format (nil: detected, as `run` does).
    package var inputFormat: TimelineFormat?
    /// `--allow-missing`: a timeline without its golden file and a golden file without its
    /// timeline are listed (SKIP, ORPHAN) instead of failing. Off by default: a gate that passes
    /// when its goldens were never committed guards nothing.
    package var allowMissing = false
    /// Timelines replayed at once; the cases keep the suite's order.
    package var jobs = 1
    /// How each timeline is replayed (`run`'s defaults, with the command's limits).
    package var options = RunOptions()
    /// Ctrl-C: no case starts after it, and a comparison under way stops at its next step (the
    /// caller leaves that case out). An update finishes the golden file it is writing: a golden
    /// file is never cut short.
    package var stop: StopRequest?
    /// Counts the steps replayed, for a progress line.
    package var steps: StepCounter?

    package init() {}

    /// What an update did to one golden file.
    package enum Change: Sendable, Equatable {
        case created, updated, unchanged
    }

    /// One case per item; a timeline that cannot be read or replayed is an error case.
    package func compare(_ suite: GoldenSuite) -> [CheckCase] {
        var cases: [CheckCase] = []
        // `each` does not throw here, so neither does `check`.
        try? check(suite) { cases.append($0) }
        return cases
    }

    /// Gives each case to `each` as soon as it and those before it are done, in suite order, on
    /// the calling thread; with `jobs` > 1 only a few finished cases wait, so a suite's memory is
    /// that of a few cases, not of all of them. An error thrown by `each` stops the check.
    package func check(_ suite: GoldenSuite, each: (CheckCase) throws -> Void) throws {
        let check = self
        var cursor = suite.makeCursor()
        try OrderedParallel.forEach(
            next: { try check.isStopped ? nil : cursor.next() }, jobs: jobs, { check.compare($0) }, deliver: each)
    }

    /// Rewrites the golden files that differ. `changed` gets the golden file's path and one line
    /// per timeline (`created …`, `updated …: summary` and the differences, `unchanged …`) in
    /// suite order, and `each` the errors and orphaned golden files, as they come.
    package func update(
        _ suite: GoldenSuite, changed: (String, String, Change) throws -> Void, each: (CheckCase) throws -> Void
    ) throws {
        let check = self
        var cursor = suite.makeCursor()
        let work: @Sendable (GoldenSuite.Item) -> UpdateResult = { item in
            let started = Date()
            guard case .timeline(let path, let expected) = item else { return .reported(check.compare(item)) }
            do {
                let (line, change) = try check.update(path, expectedPath: expected)
                return .changed(expected, line, change)
            } catch {
                let outcome = CheckCase.Outcome.error(GoldenAdvice.message(error, timeline: path, expected: expected))
                return .reported(CheckCase(name: path, seconds: Date().timeIntervalSince(started), outcome: outcome))
            }
        }
        let deliver = { (result: UpdateResult) throws in
            switch result {
            case .changed(let path, let line, let change): try changed(path, line, change)
            case .reported(let testCase): try each(testCase)
            }
        }
        try OrderedParallel.forEach(
            next: { try check.isStopped ? nil : cursor.next() }, jobs: jobs, work, deliver: deliver)
    }

    /// `update` with the errors and orphaned golden files returned.
    package func update(_ suite: GoldenSuite, changed: (String, String, Change) -> Void) -> [CheckCase] {
        var cases: [CheckCase] = []
        // Neither callback throws here, nor does the walk of a suite already walked once.
        try? update(suite, changed: changed) { cases.append($0) }
        return cases
    }

    private var isStopped: Bool { stop?.isRequested == true }

    private enum UpdateResult: Sendable {
        case changed(String, String, Change)
        case reported(CheckCase)
    }

    private func compare(_ item: GoldenSuite.Item) -> CheckCase {
        let started = Date()
        let outcome: CheckCase.Outcome
        switch item {
        case .skipped(_, let expected):
            outcome = .skipped("no expected output (\(expected)); `check --update` creates it")
        case .orphaned:
            outcome = .orphaned("no timeline for this expected output")
        case .timeline(let path, let expected):
            do {
                let result = try compareStreaming(path, expected: expected)
                outcome = .compared(result.isEqual ? result.withoutRecords : result)
            } catch {
                outcome = .error(GoldenAdvice.message(error, timeline: path, expected: expected))
            }
        }
        return CheckCase(
            name: item.path, seconds: Date().timeIntervalSince(started), outcome: outcome, strict: !allowMissing)
    }

    /// Replays the timeline into the comparison record by record while the golden file is read
    /// line by line: neither output is held whole (see `StreamingComparison`). The timeline's
    /// errors come first, then a missing golden file, then the golden file's own errors.
    private func compareStreaming(_ path: String, expected: String) throws -> Comparison {
        guard GoldenAdvice.missing(expected, for: path) == nil else {
            _ = try produce(path)
            throw GoldenAdvice.missing(expected, for: path) ?? TimelineError(file: expected, message: "missing")
        }
        let streaming = StreamingComparison(golden: try ByteInput(path: expected), options: comparison)
        let sink = RecordLineSink(name: path) { streaming.add($0) }
        try GoldenFiles.produce(
            path, options: options, csvTrackers: csvTrackers, format: inputFormat, into: sink, stop: stop, steps: steps)
        try sink.finish()
        do {
            return try streaming.finish()
        } catch {
            throw GoldenFiles.explained(error, reading: expected)
        }
    }

    /// The whole output, never cut short (a golden file is written from it).
    private func produce(_ path: String) throws -> [UInt8] {
        try GoldenFiles.produce(path, options: options, csvTrackers: csvTrackers, format: inputFormat, steps: steps)
    }

    /// Writes only when the bytes differ, so an unchanged golden file keeps its inode, mode,
    /// timestamps and symlink; a write goes through `AtomicFileSink`, which keeps mode and link.
    private func update(_ path: String, expectedPath: String) throws -> (String, Change) {
        let produced = try produce(path)
        let actual = try OutputLog.read(ByteInput(bytes: produced, name: path))
        let old = SessionDiscovery.exists(expectedPath) ? try GoldenFiles.bytes(of: expectedPath) : nil
        if old == produced { return ("unchanged \(expectedPath)", .unchanged) }
        let previous = old.flatMap { try? OutputLog.read(ByteInput(bytes: $0, name: expectedPath)) }
        let sink = try AtomicFileSink(path: expectedPath)
        try sink.write(produced)
        try sink.close()
        guard old != nil else { return ("created \(expectedPath): \(actual.count) records", .created) }
        guard let previous else { return ("updated \(expectedPath): was not JSON Lines records", .updated) }
        let comparison = RecordComparator.compare(expected: previous, actual: actual, options: ComparisonOptions())
        if comparison.isEqual { return ("updated \(expectedPath): same records, bytes differ", .updated) }
        let diff = DiffReport.text(comparison, color: false)
        return ("updated \(expectedPath): \(comparison.summary)\n" + diff.trimmingSuffixNewline, .updated)
    }
}

extension String {
    fileprivate var trimmingSuffixNewline: String { hasSuffix("\n") ? String(dropLast()) : self }
}
