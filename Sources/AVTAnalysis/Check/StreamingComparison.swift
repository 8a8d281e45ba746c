import AVTJSON
import AVTTimeline

/// Compares a golden file read line by line with records handed in one at a time (as a replay
/// writes them), holding one instant (the records of one `t`) of each side while they agree.
/// At the first instant that differs, the rest of both sides is aligned as a whole by
/// `RecordComparator`, as a comparison of the whole outputs would: an equal case of any length
/// takes the memory of an instant; a differing one that of everything from its first
/// difference on. Only differences and their context are kept (`DiffCollector`).
package final class StreamingComparison {
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
    /// Once an instant differs, everything from there on, to be aligned at the end.
    private var diverged = false
    private var restExpected: [OutputRecord] = []
    private var restActual: [OutputRecord] = []
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
        if diverged { return restActual.append(record) }
        if let first = instant.first, !Self.sameInstant(first, record) { compareInstant() }
        if diverged { return restActual.append(record) }
        instant.append(record)
    }

    /// The comparison, once every produced record was added. Throws the golden file's error.
    package func finish() throws(TimelineError) -> Comparison {
        if !diverged, !instant.isEmpty { compareInstant() }
        if !diverged, peekExpected() != nil { diverge(expected: [], actual: []) }
        if diverged {
            while let record = nextExpected() { restExpected.append(record) }
        }
        if let goldenError { throw goldenError }
        if diverged {
            let entries = RecordComparator.aligned(sorted(restExpected), sorted(restActual), options: options)
            (restExpected, restActual) = ([], [])
            for entry in RecordComparator.inTimeOrder(entries) { collector.append(entry) }
        }
        var comparison = Comparison(
            entries: collector.entries, expectedCount: expectedCount, actualCount: actualCount)
        comparison.positions = collector.positions
        comparison.unmatchedIgnores = usage.unmatchedIgnores
        comparison.unmatchedMetricNames = usage.unmatchedMetricNames
        return comparison
    }

    /// Compares the gathered actual instant with the golden file's next one; equal records are
    /// passed on as they are, anything else starts the whole-rest alignment.
    private func compareInstant() {
        let actual = sorted(instant)
        instant.removeAll(keepingCapacity: true)
        var expected: [OutputRecord] = []
        while let next = peekExpected(), expected.isEmpty || Self.sameInstant(expected[0], next) {
            expected.append(next)
            lookahead = nil
        }
        expected = sorted(expected)
        let agree =
            expected.count == actual.count
            && zip(expected, actual).allSatisfy { e, a in
                e.alignmentKey == a.alignmentKey && e.t == a.t
                    && RecordComparator.fieldChanges(e, a, options: options).isEmpty
            }
        guard agree else { return diverge(expected: expected, actual: actual) }
        for (e, a) in zip(expected, actual) { collector.append(.same(expected: e, actual: a)) }
    }

    private func diverge(expected: [OutputRecord], actual: [OutputRecord]) {
        diverged = true
        restExpected = expected
        restActual = actual
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
