import AVTCore

/// Turns one session's records into Prometheus samples, as OpenMetrics text lines
/// (`name{label="value",…} value timestamp`), following the table of `PrometheusFamily`. The same
/// lines are printed by `--format openmetrics` and sent by `--to prometheus://`, so both carry the
/// same samples.
///
/// Prometheus keeps one sample per series and millisecond (a second one is dropped, or refused),
/// so every sample written is unique per series and timestamp:
/// - a counter is cumulative, so the samples of one series in one millisecond are folded into
///   the last one, which already counts them all: nothing is lost;
/// - a gauge's second sample in the same millisecond gets the label `seq="1"` (the third
///   `seq="2"`…), as InfluxDB points get a `seq` tag; one with the same value as a sample
///   already there adds nothing and is folded into it.
/// That needs the millisecond to be over before its samples are written: they wait in `pending`
/// until a record of a later millisecond (or the end) comes. Records come in time order.
///
/// `increase()` and `rate()` count from a series' first sample and extrapolate past its last,
/// so every counter series starts with a 0 sample 1 ms before the session's start (the event
/// that creates it is then counted too) and ends with its last value repeated at the session's
/// end (`RecordEncoder.endTime`, else the last record), so a query at that end counts exactly.
package struct PrometheusSampleWriter {
    package let records: RecordEncoder
    /// Whether `# HELP`/`# TYPE`/`# UNIT` lines precede a family's first sample (the text format
    /// wants them; remote write has no use for them).
    package var describes: Bool
    private var described: Set<String> = []
    /// A counter series: its running total and its last sample (value and millisecond), for
    /// the closing sample.
    private struct Counter {
        let series: String
        var total: Double = 0
        var value = ""
        var ms = Int.min
    }
    /// Counter series in the order they began, so the closing samples come out deterministic.
    private var counters: [Counter] = []
    /// A series' place in `counters`: one lookup per sample.
    private var counterIndex: [String: Int] = [:]
    /// The millisecond `pending` belongs to.
    private var instant = Int.min
    private var pending: [(series: String, value: String)] = []
    /// Where a series sits in `pending`, for folding counter samples.
    private var pendingIndex: [String: Int] = [:]
    /// A histogram series (one per tracker): its cumulative buckets, count and sum, written as
    /// one OpenMetrics point (every bucket, `_count`, `_sum`) per millisecond it changed in.
    private struct Histogram {
        /// `name_bucket{…,le="…"}` per bound and +Inf, then `name_count{…}`, `name_sum{…}`.
        let names: [String]
        let bounds: [Int]
        /// Observations at or below each bound, cumulative as OpenMetrics wants.
        var buckets: [Int]
        var count = 0
        /// Milliseconds, divided once when written: no rounding error builds up.
        var sum = 0.0
        var ms = Int.min
    }
    private var histograms: [Histogram] = []
    private var histogramIndex: [String: Int] = [:]
    /// Histograms changed in the millisecond `pending` belongs to.
    private var pendingHistograms: [Int] = []

    package init(records: RecordEncoder, describes: Bool) {
        self.records = records
        self.describes = describes
    }

    /// Adds the samples of an event; lines of earlier milliseconds are appended to `lines`.
    package mutating func add(_ event: Event, to lines: inout [String]) {
        advance(to: records.startTime + event.timestamp, lines: &lines)
        let tracker = event.trackerId.flatMap { records.trackerNames.indices.contains($0) ? $0 : nil } ?? -1
        count(Labels(.events, action: event.action, tracker: tracker), by: 1, lines: &lines)
        let startup = PrometheusFamily.startup
        if event.action == startup.action,
            let ms = startup.attributes.lazy.compactMap({ Self.number(event[$0]) }).first
        {
            observe(ms, in: Labels(startup.family, tracker: tracker), bounds: startup.bounds, lines: &lines)
        }
        for interval in PrometheusFamily.intervals where interval.action == event.action {
            if let ms = interval.attributes.lazy.compactMap({ Self.number(event[$0]) }).first {
                gauge(Labels(interval.family, tracker: tracker), value: ms / 1000, lines: &lines)
            }
        }
        for state in PrometheusFamily.states {
            if let value = Self.number(event[state.attribute]) {
                gauge(Labels(state.family, tracker: tracker), value: value / state.divisor, lines: &lines)
            }
        }
        for total in PrometheusFamily.totals {
            if let ms = Self.number(event[total.attribute]) {
                set(Labels(total.family), value: ms / 1000, lines: &lines)
            }
        }
    }

    /// Adds the sample of a metric; lines of earlier milliseconds are appended to `lines`.
    package mutating func add(_ metric: Metric, to lines: inout [String]) {
        advance(to: records.startTime + metric.timestamp, lines: &lines)
        let value: Double
        switch metric.value {
        case .int(let v): value = Double(v)
        case .double(let v): value = v
        }
        if let family = PrometheusFamily.metrics[metric.name] {
            // MetricalcCore's gauges are milliseconds; its counters count 1 per occurrence.
            if family.kind == .gauge {
                gauge(Labels(family), value: value / 1000, lines: &lines)
                if let total = PrometheusFamily.cumulative[metric.name] {
                    // Summed in milliseconds and divided once: no rounding error builds up.
                    let i = counter(series(Labels(total), lines: &lines), lines: &lines)
                    counters[i].total += value
                    fold(i, Self.number(counters[i].total / 1000))
                }
            } else {
                count(Labels(family), by: value, lines: &lines)
            }
        } else {
            let family = PrometheusFamily.custom(metric: metric.name, kind: metric.kind)
            if family.kind == .gauge {
                gauge(Labels(family), value: value, lines: &lines)
            } else {
                count(Labels(family), by: value, lines: &lines)
            }
        }
    }

    /// Writes out what waits for its millisecond to end, then each counter's closing sample (at
    /// the end of the session).
    package mutating func finish(to lines: inout [String]) {
        writePending(to: &lines)
        let end = max(records.endTime ?? instant, instant)
        let stamp = Self.timestamp(end)
        for i in counters.indices where counters[i].ms < end {
            lines.append(counters[i].series + " " + counters[i].value + " " + stamp)
            counters[i].ms = end
        }
        for i in histograms.indices where histograms[i].ms < end {
            point(histograms[i], stamp, to: &lines)
            histograms[i].ms = end
        }
    }

    private mutating func writePending(to lines: inout [String]) {
        let stamp = Self.timestamp(instant)
        for (series, value) in pending { lines.append(series + " " + value + " " + stamp) }
        for i in pendingHistograms { point(histograms[i], stamp, to: &lines) }
        pending.removeAll(keepingCapacity: true)
        pendingIndex.removeAll(keepingCapacity: true)
        pendingHistograms.removeAll(keepingCapacity: true)
    }

    /// One histogram point: its lines together, buckets in order, as OpenMetrics wants them.
    private func point(_ histogram: Histogram, _ stamp: String, to lines: inout [String]) {
        for (i, name) in histogram.names.enumerated() {
            let value: String
            switch i {
            case ..<histogram.bounds.count: value = String(histogram.buckets[i])
            case histogram.bounds.count, histogram.bounds.count + 1: value = String(histogram.count)
            default: value = Self.number(histogram.sum / 1000)
            }
            lines.append(name + " " + value + " " + stamp)
        }
    }

    /// Adds one observation (in milliseconds) to a histogram; a new one's first point is all 0
    /// at the session's start, so its first observation is an increase, as for counters.
    private mutating func observe(_ ms: Double, in labels: Labels, bounds: [Int], lines: inout [String]) {
        let key = series(labels, lines: &lines)
        let i: Int
        if let known = histogramIndex[key] {
            i = known
        } else {
            let name = labels.described.name
            let pairs = labelPairs(labels)
            var names = bounds.map { bound in
                Self.text(name + "_bucket", pairs + [("le", Self.bucketBound(bound))])
            }
            names.append(Self.text(name + "_bucket", pairs + [("le", "+Inf")]))
            names += [Self.text(name + "_count", pairs), Self.text(name + "_sum", pairs)]
            i = histograms.count
            histogramIndex[key] = i
            histograms.append(
                Histogram(names: names, bounds: bounds, buckets: Array(repeating: 0, count: bounds.count)))
            point(histograms[i], Self.timestamp(records.startTime - 1), to: &lines)
        }
        for b in bounds.indices where ms <= Double(bounds[b]) { histograms[i].buckets[b] += 1 }
        histograms[i].count += 1
        histograms[i].sum += ms
        if histograms[i].ms != instant {
            histograms[i].ms = instant
            pendingHistograms.append(i)
        }
    }

    /// A bucket's bound in seconds as the OpenMetrics parsers want it: the canonical float
    /// (`1.0`, `0.25`), so `le` values match whoever else writes the same bucket.
    static func bucketBound(_ ms: Int) -> String {
        let text = Self.number(Double(ms) / 1000)
        return text.contains(".") ? text : text + ".0"
    }

    private mutating func advance(to ms: Int, lines: inout [String]) {
        if ms != instant {
            writePending(to: &lines)
            instant = ms
        }
    }

    // MARK: Samples

    /// A series before it is written out: its family and the labels that vary (the session is
    /// the writer's). Series texts are cached by it: a session has few series and many samples.
    private struct Labels: Hashable {
        let family: String
        let kind: PrometheusFamily.Kind
        let action: Action?
        let tracker: Int
        var seq = 0
        let described: PrometheusFamily

        init(_ family: PrometheusFamily, action: Action? = nil, tracker: Int = -1) {
            (self.family, self.kind, self.described) = (family.name, family.kind, family)
            self.action = action
            self.tracker = tracker
        }

        static func == (a: Labels, b: Labels) -> Bool {
            a.family == b.family && a.action == b.action && a.tracker == b.tracker && a.seq == b.seq
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(family)
            hasher.combine(action?.index ?? -1)
            hasher.combine(tracker)
            hasher.combine(seq)
        }
    }

    private var seriesTexts: [Labels: String] = [:]

    /// Adds `amount` to a cumulative counter.
    private mutating func count(_ labels: Labels, by amount: Double, lines: inout [String]) {
        let i = counter(series(labels, lines: &lines), lines: &lines)
        counters[i].total += amount
        fold(i, Self.number(counters[i].total))
    }

    /// Sets a counter whose running total the record already carries.
    private mutating func set(_ labels: Labels, value: Double, lines: inout [String]) {
        fold(counter(series(labels, lines: &lines), lines: &lines), Self.number(value))
    }

    /// The counter of a series; a new one's first sample is its 0 at the session's start, so
    /// its first count is an increase.
    private mutating func counter(_ series: String, lines: inout [String]) -> Int {
        if let i = counterIndex[series] { return i }
        counterIndex[series] = counters.count
        counters.append(Counter(series: series))
        lines.append(series + " 0 " + Self.timestamp(records.startTime - 1))
        return counters.count - 1
    }

    /// A counter's sample: replaces one of the same series in this millisecond.
    private mutating func fold(_ i: Int, _ value: String) {
        counters[i].value = value
        counters[i].ms = instant
        let series = counters[i].series
        if let index = pendingIndex[series] {
            pending[index].value = value
        } else {
            pendingIndex[series] = pending.count
            pending.append((series, value))
        }
    }

    /// A gauge's sample: a second one of the same series in this millisecond gets `seq`, unless
    /// it says the same as one already there (two events of a tracker in one millisecond
    /// carrying the same position): that one sample says it for both.
    private mutating func gauge(_ labels: Labels, value: Double, lines: inout [String]) {
        let text = Self.number(value)
        var labels = labels
        var series = self.series(labels, lines: &lines)
        while let index = pendingIndex[series] {
            if pending[index].value == text { return }
            labels.seq += 1
            series = self.series(labels, lines: &lines)
        }
        pendingIndex[series] = pending.count
        pending.append((series, text))
    }

    /// `name{label="value",…}` with the labels sorted, `session` and the `--label`s added; describes the family
    /// the first time it is used.
    private mutating func series(_ labels: Labels, lines: inout [String]) -> String {
        if let text = seriesTexts[labels] { return text }
        let family = labels.described
        if describes, !described.contains(family.name) {
            described.insert(family.name)
            // The metadata may come before samples of the previous millisecond that still wait:
            // families are grouped only by `OpenMetricsMergingSink`, which reads these lines.
            lines.append("# HELP \(family.name) \(family.help)")
            lines.append("# TYPE \(family.name) \(family.kind.rawValue)")
            if !family.unit.isEmpty { lines.append("# UNIT \(family.name) \(family.unit)") }
        }
        let text = Self.text(family.sampleName, labelPairs(labels))
        seriesTexts[labels] = text
        return text
    }

    /// A series' labels: its own, the session and the `--label`s.
    private func labelPairs(_ labels: Labels) -> [(String, String)] {
        var all: [(String, String)] = []
        if let action = labels.action { all.append(("action", action.name)) }
        if labels.tracker >= 0 { all.append(("tracker", records.trackerNames[labels.tracker])) }
        if labels.seq > 0 { all.append(("seq", String(labels.seq))) }
        if let session = records.seriesSession { all.append(("session", session)) }
        all += records.labels.map { ($0.name, $0.value) }
        return all
    }

    /// `name{label="value",…}`, the labels sorted by name.
    private static func text(_ name: String, _ pairs: [(String, String)]) -> String {
        let all = pairs.sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
        var text = name
        if !all.isEmpty {
            text += "{"
            for (i, (name, value)) in all.enumerated() {
                if i > 0 { text += "," }
                text += name + "=\"" + Self.escaped(value) + "\""
            }
            text += "}"
        }
        return text
    }

    // MARK: Text

    /// An attribute's value as a number: integers and doubles; nil for strings, booleans and none.
    static func number(_ value: AttributeValue?) -> Double? {
        switch value {
        case .int(let v)?: Double(v)
        case .double(let v)?: v
        default: nil
        }
    }

    /// A sample value: integers without a fraction, others in their shortest exact form (a
    /// millisecond count times 0.001 prints as its decimal, `1.5`), and OpenMetrics' spellings of
    /// NaN and the infinities.
    package static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Inf" : "+Inf" }
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 { return String(Int(value)) }
        return value.description
    }

    /// Epoch milliseconds as OpenMetrics seconds with three decimals (`1772366400.250`), which
    /// Prometheus reads back to the same millisecond.
    package static func timestamp(_ ms: Int) -> String {
        let magnitude = ms.magnitude
        let fraction = String(magnitude % 1000)
        return (ms < 0 ? "-" : "") + String(magnitude / 1000) + "."
            + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// A label value: backslash, double quote and line feed escaped, as OpenMetrics requires.
    package static func escaped(_ value: String) -> String {
        guard value.utf8.contains(where: { $0 == 0x5C || $0 == 0x22 || $0 == 0x0A }) else { return value }
        var out = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
