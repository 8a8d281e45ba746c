import AVTFormats
import AVTJSON
import AVTTrackers

/// A log of serialized AVMetrics events as apps upload them: one event object per line, each
/// with an absolute `date` (`{"event": "AVMetricPlayerItemStallEvent", "date":
/// "2026-03-01T12:00:03.250Z", "mediaTime": 12.5, …}`). Read as a timeline with one `avmetrics`
/// tracker named `content`: startTime = the first event's date, each step's t = its date − that
/// (ms). Streamed line by line, so memory stays constant.
package struct AVMetricsLogReader: TimelineSource {
    package static let trackerName = "content"

    package let name: String
    package let settings: TimelineSettings
    private var lines: LineReader
    private var pending: Step?
    private var previousDate: Int
    private var index = 0

    package init(_ input: ByteInput) throws(TimelineError) {
        name = input.name
        lines = LineReader(input)
        let file = input.name
        let first: (step: Step, date: Int, at: SourceLocation)? = try lines.nextNonBlankLine {
            (bytes, line) throws(TimelineError) in
            try Self.event(bytes, line: line, file: file, index: 0, startTime: nil)
        }
        guard let first else {
            throw TimelineError(
                file: input.name,
                message:
                    "empty AVMetrics log: expected one event per line, such as {\"event\": \"\(AVMetricsSchema.stall)\", \"date\": \"2026-03-01T12:00:03.250Z\"}"
            )
        }
        var settings = TimelineSettings()
        settings.startTime = first.date
        settings.trackers = [TrackerSpec(name: Self.trackerName, kind: .avmetrics)]
        self.settings = settings
        pending = first.step
        previousDate = first.date
    }

    package mutating func nextStep() throws(TimelineError) -> Step? {
        if let step = pending {
            pending = nil
            index = 1
            return step
        }
        let file = name
        let startTime = settings.startTime
        let index = self.index
        let previous = previousDate
        let next: (step: Step, date: Int, at: SourceLocation)? = try lines.nextNonBlankLine {
            (bytes, line) throws(TimelineError) in
            let event = try Self.event(bytes, line: line, file: file, index: index, startTime: startTime)
            guard event.date >= previous else {
                throw TimelineError(
                    file: file, location: event.at, path: "date",
                    message: "\(ISO8601.format(epochMilliseconds: event.date)) is earlier than the previous event's "
                        + "\(ISO8601.format(epochMilliseconds: previous)): events must be in date order")
            }
            return event
        }
        guard let next else { return nil }
        previousDate = next.date
        self.index += 1
        return next.step
    }

    /// One line: an object whose keys are `event` and the class's properties, `date` required.
    static func event(_ bytes: UnsafeBufferPointer<UInt8>, line: Int, file: String, index: Int, startTime: Int?)
        throws(TimelineError) -> (step: Step, date: Int, at: SourceLocation)
    {
        let root = try JSONParser.parse(bytes, firstLine: line, file: file)
        guard case .object(let members) = root.value else {
            throw TimelineError(
                file: file, location: root.location,
                message:
                    "expected an AVMetrics event object such as {\"event\": \"\(AVMetricsSchema.stall)\", \"date\": …}, found \(root.value.typeName)"
            )
        }
        let rules = AVMetricsTracker.observationRules
        var observations: [Observation] = []
        observations.reserveCapacity(members.count)
        for member in members {
            guard let rule = rules[member.key] else {
                throw TimelineError(
                    file: file, location: member.node.location,
                    message:
                        "unknown AVMetrics property \"\(member.key)\": expected one of: \(rules.keys.sorted().joined(separator: ", "))"
                )
            }
            if let problem = rule.diagnose(member.node.value) {
                throw TimelineError(
                    file: file, location: problem.location ?? member.node.location, path: member.key + problem.path,
                    message: problem.message)
            }
            guard !observations.contains(where: { $0.key == member.key }) else {
                throw TimelineError(
                    file: file, location: member.node.location, message: "duplicate property \"\(member.key)\"")
            }
            observations.append(Observation(member.key, member.node.value))
        }
        if let problem = AVMetricsTracker.checkObservations(&observations) {
            let blamed = problem.key.flatMap { key in members.first { $0.key == key }?.node.location } ?? root.location
            throw TimelineError(file: file, location: blamed, path: problem.key, message: problem.message)
        }
        guard let dateNode = members.first(where: { $0.key == "date" })?.node,
            let date = AVMetricsValue.date(dateNode.value)
        else {
            throw TimelineError(
                file: file, location: root.location,
                message:
                    "missing \"date\": every event of an AVMetrics log needs its ISO-8601 date, such as \"2026-03-01T12:00:03.250Z\""
            )
        }
        let t = date - (startTime ?? date)
        guard t <= FieldReader.maxMilliseconds else {
            throw TimelineError(
                file: file, location: dateNode.location, path: "date",
                message: "more than 2^53 − 1 ms after the first event")
        }
        let step = Step(
            t: max(0, t), tracker: 0, observe: observations, origin: StepOrigin(index: index, location: root.location))
        return (step, date, dateNode.location)
    }

    /// Whether a line looks like an AVMetrics event: an object whose `event` names an AVMetrics
    /// class (a JSONL timeline's first line has `trackers` instead).
    static func looksLikeEvent(_ line: ArraySlice<UInt8>) -> Bool {
        guard let node = try? JSONParser.parse(Array(line)), case .object(let members) = node.value,
            let event = members.first(where: { $0.key == "event" }), case .string(let name) = event.node.value
        else { return false }
        return name.hasPrefix("AVMetric")
    }
}
