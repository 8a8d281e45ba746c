import AVTJSON
import AVTKPI
import AVTOutput
import AVTTimeline

/// Compares a golden file read line by line with records handed in one at a time (as a replay
/// writes them), holding one instant (the records of one `t`) of each side while they agree.
/// From an instant that differs, both sides are gathered, the golden file read up to the time
/// the replay has reached, until the last `resyncInstants` instants of each side agree again:
/// the span before them is aligned as a whole by `RecordComparator` (as a comparison of the
/// whole outputs would) and streaming resumes. A span that never closes (every later time
/// moved) is aligned at the end. Memory: one instant while equal, each unequal span while it
/// lasts, and the differences with two records of context (`DiffCollector`).
package final class StreamingComparison {
    /// Instants in a row that must agree, on both sides, to end an unequal span: a few, so a
    /// coincidence does not cut a span where the whole alignment would pair across.
    static let resyncInstants = 3

    private let options: ComparisonOptions
    private var golden: LineReader
    private let goldenName: String
    private var expectedNormalizer: IdNormalizer
    private var actualNormalizer: IdNormalizer
    private var usage: NameUsage
    private var collector = DiffCollector(context: DiffReport.context)
    private var expectedCount = 0
    private var actualCount = 0
    /// The actual instant being gathered, and the next expected record already read.
    private var instant: [OutputRecord] = []
    private var lookahead: OutputRecord?
    private var goldenDone = false
    /// The unequal span, instant by instant on each side; empty while the outputs agree.
    private var spanExpected: [[OutputRecord]] = []
    private var spanActual: [[OutputRecord]] = []
    /// The records the span holds now, and the most it ever held (for tests of the bound).
    private var spanRecords = 0
    private(set) var largestSpan = 0
    /// The golden file's read error, thrown once the replay is done (its errors come first).
    private var goldenError: TimelineError?

    package init(golden: ByteInput, options: ComparisonOptions) {
        self.options = options
        self.golden = LineReader(golden)
        self.goldenName = golden.name
        expectedNormalizer = IdNormalizer(ignore: options.ignore)
        actualNormalizer = IdNormalizer(ignore: options.ignore)
        usage = NameUsage(options)
    }

    /// One produced record, in the order the replay wrote it.
    package func add(_ record: OutputRecord) {
        actualCount += 1
        usage.see(record)
        let record = actualNormalizer(record)
        if let first = instant.first, !Self.sameInstant(first, record) { finishInstant() }
        instant.append(record)
    }

    /// The comparison, once every produced record was added. Throws the golden file's error.
    package func finish() throws(TimelineError) -> Comparison {
        if !instant.isEmpty { finishInstant() }
        if spanExpected.isEmpty, spanActual.isEmpty, peekExpected() != nil { spanExpected.append([]) }
        if !spanExpected.isEmpty || !spanActual.isEmpty {
            var rest: [OutputRecord] = []
            while let record = nextExpected() { rest.append(record) }
            spanExpected.append(sorted(rest))
            closeSpan(keeping: 0)
        }
        if let goldenError { throw goldenError }
        var comparison = Comparison(
            entries: collector.entries, expectedCount: expectedCount, actualCount: actualCount)
        comparison.positions = collector.positions
        comparison.unmatchedIgnores = usage.unmatchedIgnores
        comparison.unmatchedMetricNames = usage.unmatchedMetricNames
        return comparison
    }

    /// Compares the gathered actual instant with the golden file: equal to its next instant,
    /// the records are passed on; else the instant opens (or extends) an unequal span.
    private func finishInstant() {
        let actual = sorted(instant)
        instant.removeAll(keepingCapacity: true)
        if spanActual.isEmpty {
            let expected = nextExpectedInstant()
            if agree(expected, actual) {
                for (e, a) in zip(expected, actual) { collector.append(.same(expected: e, actual: a)) }
                return
            }
            spanExpected = [expected]
            spanActual = [actual]
            spanRecords = expected.count + actual.count
        } else {
            spanActual.append(actual)
            spanRecords += actual.count
            // The golden file's instants up to the time the replay reached (both are in time
            // order; a file that is not stops adding here, and its span closes at the end).
            while let t = actual.first?.t, let next = peekExpected(), let u = next.t, u <= t {
                spanExpected.append(nextExpectedInstant())
                spanRecords += spanExpected[spanExpected.count - 1].count
            }
        }
        largestSpan = max(largestSpan, spanRecords)
        let k = Self.resyncInstants
        guard spanExpected.count > k, spanActual.count > k,
            zip(spanExpected.suffix(k), spanActual.suffix(k)).allSatisfy({ agree($0, $1) })
        else { return }
        closeSpan(keeping: k)
    }

    /// Aligns the span as a whole but for its last `keeping` instants, which agree and follow
    /// as unchanged records; then the outputs agree again.
    private func closeSpan(keeping k: Int) {
        let expected = Array(spanExpected.dropLast(k).joined())
        let actual = Array(spanActual.dropLast(k).joined())
        let entries = RecordComparator.aligned(expected, actual, options: options)
        for entry in RecordComparator.inTimeOrder(entries) { collector.append(entry) }
        for (e, a) in zip(spanExpected.suffix(k).joined(), spanActual.suffix(k).joined()) {
            collector.append(.same(expected: e, actual: a))
        }
        (spanExpected, spanActual, spanRecords) = ([], [], 0)
    }

    /// Two instants agree when they pair record by record with nothing changed.
    private func agree(_ expected: [OutputRecord], _ actual: [OutputRecord]) -> Bool {
        expected.count == actual.count
            && zip(expected, actual).allSatisfy { e, a in
                // The alignment key's parts, without building its string for every pair.
                e.t == a.t && e.type == a.type && e.label == a.label && e.tracker == a.tracker
                    && e.session == a.session
                    && RecordComparator.fieldChanges(e, a, options: options).isEmpty
            }
    }

    /// The golden file's next instant (sorted under `--ignore-order`); empty at its end.
    private func nextExpectedInstant() -> [OutputRecord] {
        var expected: [OutputRecord] = []
        while let next = peekExpected(), expected.isEmpty || Self.sameInstant(expected[0], next) {
            expected.append(next)
            lookahead = nil
        }
        return sorted(expected)
    }

    /// Records of one instant are compared as a set under `--ignore-order`, as a whole
    /// comparison does.
    private func sorted(_ records: [OutputRecord]) -> [OutputRecord] {
        options.ignoreOrder ? RecordComparator.sortedWithinInstants(records) : records
    }

    private static func sameInstant(_ a: OutputRecord, _ b: OutputRecord) -> Bool {
        a.t == b.t && a.session == b.session
    }

    private func peekExpected() -> OutputRecord? {
        if lookahead == nil { lookahead = readExpected() }
        return lookahead
    }

    private func nextExpected() -> OutputRecord? {
        defer { lookahead = nil }
        return peekExpected()
    }

    /// The golden file's next record, normalised; nil at its end or at an error (kept).
    private func readExpected() -> OutputRecord? {
        guard !goldenDone else { return nil }
        let file = goldenName
        do {
            let record = try golden.nextNonBlankLine { (bytes, line) throws(TimelineError) in
                try OutputLog.parse(bytes, line: line, file: file)
            }
            guard let record else {
                goldenDone = true
                return nil
            }
            expectedCount += 1
            usage.see(record)
            return expectedNormalizer(record)
        } catch {
            goldenDone = true
            goldenError = error
            return nil
        }
    }
}
