import AVTCore

/// Turns one session's records into Prometheus samples (`PrometheusSample`: a series, a value, a
/// millisecond), following the table of `PrometheusFamily`. `--format openmetrics` prints them as
/// OpenMetrics text lines (`name{label="value",…} value timestamp`, `line(_:)`) and
/// `--to prometheus://` sends the same samples as numbers, so both carry the same samples.
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
    /// wants them; remote write has no use for them): see `descriptions`.
    package var describes: Bool
    private var described: Set<String> = []
    /// Families to describe, each before the sample at `before` of the array the samples went to;
    /// the caller prints them and empties the list (`removeDescriptions`) when it empties that array.
    package private(set) var descriptions: [(before: Int, family: PrometheusFamily)] = []
    /// Every series' text, `name{label="value",…}`, by its number (`PrometheusSample.series`); a
    /// series keeps its number for the session, and texts only get added.
    package private(set) var series: [String] = []
    /// A series' number by its text: two label sets that print alike (two trackers of one name)
    /// are one series.
    private var seriesNumbers: [String: Int32] = [:]
    /// A counter series: its running total and its last sample (value and millisecond), for
    /// the closing sample.
    private struct Counter {
        let series: Int32
        var total: Double = 0
        var value: Double = 0
        var ms = Int.min
    }
    /// Counter series in the order they began, so the closing samples come out deterministic.
    private var counters: [Counter] = []
    /// A series' place in `counters` (-1: not a counter), by series number: one lookup per sample.
    private var counterIndex: [Int32] = []
    /// The millisecond `pending` belongs to.
    private var instant = Int.min
    private var pending: [(series: Int32, value: Double)] = []
    /// Where a series sits in `pending` (-1: not there), by series number, for folding samples.
    private var pendingIndex: [Int32] = []
    /// A histogram series (one per tracker): its cumulative buckets, count and sum, written as
    /// one OpenMetrics point (every bucket, `_count`, `_sum`) per millisecond it changed in.
    private struct Histogram {
        /// `name_bucket{…,le="…"}` per bound and +Inf, then `name_count{…}`, `name_sum{…}`.
        let names: [Int32]
        let bounds: [Int]
        /// Observations at or below each bound, cumulative as OpenMetrics wants.
        var buckets: [Int]
        var count = 0
        /// Milliseconds, divided once when written: no rounding error builds up.
        var sum = 0.0
        var ms = Int.min
    }
    private var histograms: [Histogram] = []
    /// A histogram's place in `histograms` (-1: none), by the number of its labels' series.
    private var histogramIndex: [Int32] = []
    /// Histograms changed in the millisecond `pending` belongs to.
    private var pendingHistograms: [Int] = []

    package init(records: RecordEncoder, describes: Bool) {
        self.records = records
        self.describes = describes
    }

    /// Adds the samples of an event; samples of earlier milliseconds are appended to `samples`.
    package mutating func add(_ event: Event, to samples: inout [PrometheusSample]) {
        advance(to: records.startTime + event.timestamp, samples: &samples)
        let tracker = event.trackerId.flatMap { records.trackerNames.indices.contains($0) ? $0 : nil } ?? -1
        count(Labels(Self.eventsSlot, action: event.action, tracker: tracker), by: 1, samples: &samples)
        let startup = PrometheusFamily.startup
        if event.action == startup.action,
            let ms = startup.attributes.lazy.compactMap({ Self.number(event[$0]) }).first
        {
            observe(ms, in: Labels(Self.startupSlot, tracker: tracker), bounds: startup.bounds, samples: &samples)
        }
        for (i, interval) in PrometheusFamily.intervals.enumerated() where interval.action == event.action {
            if let ms = interval.attributes.lazy.compactMap({ Self.number(event[$0]) }).first {
                gauge(Labels(Self.intervalSlots + i, tracker: tracker), value: ms / 1000, samples: &samples)
            }
        }
        for (i, state) in PrometheusFamily.states.enumerated() {
            if let value = Self.number(event[state.attribute]) {
                gauge(Labels(Self.stateSlots + i, tracker: tracker), value: value / state.divisor, samples: &samples)
            }
        }
        for (i, total) in PrometheusFamily.totals.enumerated() {
            if let ms = Self.number(event[total.attribute]) {
                set(Labels(Self.totalSlots + i), value: ms / 1000, samples: &samples)
            }
        }
    }

    /// Adds the sample of a metric; samples of earlier milliseconds are appended to `samples`.
    package mutating func add(_ metric: Metric, to samples: inout [PrometheusSample]) {
        advance(to: records.startTime + metric.timestamp, samples: &samples)
        let value: Double
        switch metric.value {
        case .int(let v): value = Double(v)
        case .double(let v): value = v
        }
        let slots = metricSlots(metric)
        let family = families[slots.family]
        if slots.known {
            // MetricalcCore's gauges are milliseconds; its counters count 1 per occurrence.
            if family.kind == .gauge {
                gauge(Labels(slots.family), value: value / 1000, samples: &samples)
                if let total = slots.total {
                    // Summed in milliseconds and divided once: no rounding error builds up.
                    let i = counter(series(Labels(total), samples: &samples), samples: &samples)
                    counters[i].total += value
                    fold(i, counters[i].total / 1000)
                }
            } else {
                count(Labels(slots.family), by: value, samples: &samples)
            }
        } else {
            if family.kind == .gauge {
                gauge(Labels(slots.family), value: value, samples: &samples)
            } else {
                count(Labels(slots.family), by: value, samples: &samples)
            }
        }
    }

    /// Writes out what waits for its millisecond to end, then each counter's closing sample (at
    /// the end of the session).
    package mutating func finish(to samples: inout [PrometheusSample]) {
        writePending(to: &samples)
        let end = max(records.endTime ?? instant, instant)
        for i in counters.indices where counters[i].ms < end {
            samples.append(PrometheusSample(series: counters[i].series, value: counters[i].value, milliseconds: end))
            counters[i].ms = end
        }
        for i in histograms.indices where histograms[i].ms < end {
            point(histograms[i], end, to: &samples)
            histograms[i].ms = end
        }
    }

    /// The families described so far have been printed.
    package mutating func removeDescriptions() { descriptions.removeAll(keepingCapacity: true) }

    private mutating func writePending(to samples: inout [PrometheusSample]) {
        for (series, value) in pending {
            samples.append(PrometheusSample(series: series, value: value, milliseconds: instant))
            pendingIndex[Int(series)] = -1
        }
        for i in pendingHistograms { point(histograms[i], instant, to: &samples) }
        pending.removeAll(keepingCapacity: true)
        pendingHistograms.removeAll(keepingCapacity: true)
    }

    /// One histogram point: its samples together, buckets in order, as OpenMetrics wants them.
    private func point(_ histogram: Histogram, _ ms: Int, to samples: inout [PrometheusSample]) {
        for (i, name) in histogram.names.enumerated() {
            let value: Double
            switch i {
            case ..<histogram.bounds.count: value = Double(histogram.buckets[i])
            case histogram.bounds.count, histogram.bounds.count + 1: value = Double(histogram.count)
            default: value = histogram.sum / 1000
            }
            samples.append(PrometheusSample(series: name, value: value, milliseconds: ms))
        }
    }

    /// Adds one observation (in milliseconds) to a histogram; a new one's first point is all 0
    /// at the session's start, so its first observation is an increase, as for counters.
    private mutating func observe(_ ms: Double, in labels: Labels, bounds: [Int], samples: inout [PrometheusSample]) {
        let key = Int(series(labels, samples: &samples))
        let i: Int
        if histogramIndex[key] >= 0 {
            i = Int(histogramIndex[key])
        } else {
            let name = families[labels.family].name
            let pairs = labelPairs(labels)
            var names = bounds.map { bound in
                number(of: Self.text(name + "_bucket", pairs + [("le", Self.bucketBound(bound))]))
            }
            names.append(number(of: Self.text(name + "_bucket", pairs + [("le", "+Inf")])))
            names += [number(of: Self.text(name + "_count", pairs)), number(of: Self.text(name + "_sum", pairs))]
            i = histograms.count
            histogramIndex[key] = Int32(i)
            histograms.append(
                Histogram(names: names, bounds: bounds, buckets: Array(repeating: 0, count: bounds.count)))
            point(histograms[i], records.startTime - 1, to: &samples)
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

    private mutating func advance(to ms: Int, samples: inout [PrometheusSample]) {
        if ms != instant {
            writePending(to: &samples)
            instant = ms
        }
    }

    // MARK: Samples

    /// Families by slot: the fixed ones of `PrometheusFamily`'s tables first, then metrics' as
    /// they come. A sample's series is looked up by its family's slot and labels as integers:
    /// hashing the family's text, and copying the family's texts with it, cost more than the
    /// rest of a sample.
    private var families = Self.fixedFamilies
    private static let fixedFamilies =
        [PrometheusFamily.events, PrometheusFamily.startup.family] + PrometheusFamily.intervals.map(\.family)
        + PrometheusFamily.states.map(\.family) + PrometheusFamily.totals.map(\.family)
    private static let eventsSlot = 0
    private static let startupSlot = 1
    private static let intervalSlots = 2
    private static let stateSlots = intervalSlots + PrometheusFamily.intervals.count
    private static let totalSlots = stateSlots + PrometheusFamily.states.count
    /// A metric's slots by its name and kind (a custom metric's family depends on both): its
    /// family, and the cumulative counter some gauges feed; `known` for MetricalcCore's metrics
    /// (milliseconds), not for custom ones.
    private var metricFamilies: [MetricKey: (family: Int, total: Int?, known: Bool)] = [:]

    private struct MetricKey: Hashable {
        let name: String
        let kind: Metric.Kind
    }

    private mutating func metricSlots(_ metric: Metric) -> (family: Int, total: Int?, known: Bool) {
        let key = MetricKey(name: metric.name, kind: metric.kind)
        if let slots = metricFamilies[key] { return slots }
        func slot(_ family: PrometheusFamily) -> Int {
            families.append(family)
            return families.count - 1
        }
        let slots: (family: Int, total: Int?, known: Bool)
        if let family = PrometheusFamily.metrics[metric.name] {
            slots = (slot(family), PrometheusFamily.cumulative[metric.name].map(slot), true)
        } else {
            slots = (slot(PrometheusFamily.custom(metric: metric.name, kind: metric.kind)), nil, false)
        }
        metricFamilies[key] = slots
        return slots
    }

    /// A series before it is written out: its family's slot and the labels that vary (the
    /// session is the writer's). Series numbers are cached by it: a session has few series and
    /// many samples.
    private struct Labels: Hashable {
        let family: Int
        let action: Action?
        let tracker: Int
        var seq = 0

        init(_ family: Int, action: Action? = nil, tracker: Int = -1) {
            self.family = family
            self.action = action
            self.tracker = tracker
        }

        static func == (a: Labels, b: Labels) -> Bool {
            a.family == b.family && a.action == b.action && a.tracker == b.tracker && a.seq == b.seq
        }

        /// One integer: equal labels hash alike, and the rare collision only costs a compare.
        func hash(into hasher: inout Hasher) {
            hasher.combine(family << 48 ^ Int(action?.index ?? -1) << 32 ^ tracker << 16 ^ seq)
        }
    }

    private var seriesOfLabels: [Labels: Int32] = [:]

    /// Adds `amount` to a cumulative counter.
    private mutating func count(_ labels: Labels, by amount: Double, samples: inout [PrometheusSample]) {
        let i = counter(series(labels, samples: &samples), samples: &samples)
        counters[i].total += amount
        fold(i, counters[i].total)
    }

    /// Sets a counter whose running total the record already carries.
    private mutating func set(_ labels: Labels, value: Double, samples: inout [PrometheusSample]) {
        fold(counter(series(labels, samples: &samples), samples: &samples), value)
    }

    /// The counter of a series; a new one's first sample is its 0 at the session's start, so
    /// its first count is an increase.
    private mutating func counter(_ series: Int32, samples: inout [PrometheusSample]) -> Int {
        let known = counterIndex[Int(series)]
        if known >= 0 { return Int(known) }
        counterIndex[Int(series)] = Int32(counters.count)
        counters.append(Counter(series: series))
        samples.append(PrometheusSample(series: series, value: 0, milliseconds: records.startTime - 1))
        return counters.count - 1
    }

    /// A counter's sample: replaces one of the same series in this millisecond.
    private mutating func fold(_ i: Int, _ value: Double) {
        counters[i].value = value
        counters[i].ms = instant
        let series = counters[i].series
        let index = pendingIndex[Int(series)]
        if index >= 0 {
            pending[Int(index)].value = value
        } else {
            pendingIndex[Int(series)] = Int32(pending.count)
            pending.append((series, value))
        }
    }

    /// A gauge's sample: a second one of the same series in this millisecond gets `seq`, unless
    /// it says the same as one already there (two events of a tracker in one millisecond
    /// carrying the same position): that one sample says it for both.
    private mutating func gauge(_ labels: Labels, value: Double, samples: inout [PrometheusSample]) {
        var labels = labels
        var series = self.series(labels, samples: &samples)
        while pendingIndex[Int(series)] >= 0 {
            if PrometheusSample.same(pending[Int(pendingIndex[Int(series)])].value, value) { return }
            labels.seq += 1
            series = self.series(labels, samples: &samples)
        }
        pendingIndex[Int(series)] = Int32(pending.count)
        pending.append((series, value))
    }

    /// The number of `name{label="value",…}` with the labels sorted, `session` and the `--label`s
    /// added; describes the family the first time it is used.
    private mutating func series(_ labels: Labels, samples: inout [PrometheusSample]) -> Int32 {
        if let known = seriesOfLabels[labels] { return known }
        let family = families[labels.family]
        if describes, !described.contains(family.name) {
            described.insert(family.name)
            // The metadata may come before samples of the previous millisecond that still wait:
            // families are grouped only by `OpenMetricsMergingSink`, which reads these lines.
            descriptions.append((samples.count, family))
        }
        let number = number(of: Self.text(family.sampleName, labelPairs(labels)))
        seriesOfLabels[labels] = number
        return number
    }

    /// The number of a series' text, given on first sight.
    private mutating func number(of text: String) -> Int32 {
        if let known = seriesNumbers[text] { return known }
        let number = Int32(series.count)
        series.append(text)
        seriesNumbers[text] = number
        counterIndex.append(-1)
        pendingIndex.append(-1)
        histogramIndex.append(-1)
        return number
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

    // MARK: Lines

    /// A sample as the OpenMetrics line `--format openmetrics` prints (without its line feed).
    package func line(_ sample: PrometheusSample) -> String {
        series[Int(sample.series)] + " " + Self.number(sample.value) + " " + Self.timestamp(sample.milliseconds)
    }

    /// The `# HELP`, `# TYPE` and `# UNIT` lines of a family.
    package static func describing(_ family: PrometheusFamily) -> [String] {
        var lines = ["# HELP \(family.name) \(family.help)", "# TYPE \(family.name) \(family.kind.rawValue)"]
        if !family.unit.isEmpty { lines.append("# UNIT \(family.name) \(family.unit)") }
        return lines
    }

    /// Samples as text lines, each family's description before its first sample; empties
    /// `descriptions`, which must belong to `samples`.
    package mutating func lines(_ samples: [PrometheusSample]) -> [String] {
        var lines: [String] = []
        var next = 0
        for i in 0...samples.count {
            while next < descriptions.count, descriptions[next].before == i {
                lines += Self.describing(descriptions[next].family)
                next += 1
            }
            if i < samples.count { lines.append(line(samples[i])) }
        }
        removeDescriptions()
        return lines
    }

    /// `add(_:to:)` as text lines.
    package mutating func add(_ event: Event, to lines: inout [String]) {
        var samples: [PrometheusSample] = []
        add(event, to: &samples)
        lines += self.lines(samples)
    }

    /// `add(_:to:)` as text lines.
    package mutating func add(_ metric: Metric, to lines: inout [String]) {
        var samples: [PrometheusSample] = []
        add(metric, to: &samples)
        lines += self.lines(samples)
    }

    /// `finish(to:)` as text lines.
    package mutating func finish(to lines: inout [String]) {
        var samples: [PrometheusSample] = []
        finish(to: &samples)
        lines += self.lines(samples)
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
