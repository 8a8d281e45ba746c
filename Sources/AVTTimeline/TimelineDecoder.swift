import AVTCore
import AVTFormats
import AVTJSON
import AVTTrackers

/// Reads the JSON timeline document (docs/timelines.md) and checks every
/// field, so a replay never starts on input it would have to guess about.
public enum TimelineDecoder {
    package static let settingKeys = ["startTime", "hub", "metrics", "pingInterval", "until", "trackers"]
    package static let trackerKeys = ["name", "kind", "isAdsTracker", "emitTrackerInit"]
    package static let stepKeys = ["t", "tracker", "set", "observe", "action", "attributes"]

    /// Reads a JSON timeline document; `file` names it in errors, which give line and column.
    public static func decode(_ bytes: [UInt8], file: String, limits: InputLimits = InputLimits())
        throws(TimelineError) -> Timeline
    {
        let root = try JSONParser.parse(bytes, file: file)
        let reader = FieldReader(file: file, limits: limits)
        let (settings, stepNodes) = try decodeRoot(root, reader: reader)
        var stepReader = StepReader(trackers: settings.trackers, reader: reader)
        var steps: [Step] = []
        steps.reserveCapacity(stepNodes.count)
        for (index, node) in stepNodes.enumerated() {
            steps.append(try stepReader.step(node, index: index))
        }
        return Timeline(settings: settings, steps: steps)
    }

    /// A document's root object: its settings and its steps, not yet decoded. The streamed reader
    /// passes a root whose `steps` is an empty array, to check the rest exactly as here.
    static func decodeRoot(_ root: JSONNode, reader: FieldReader) throws(TimelineError) -> (
        settings: TimelineSettings, steps: [JSONNode]
    ) {
        let members = try reader.object(root, path: "timeline", allowed: settingKeys + ["steps"])
        let settings = try decodeSettings(members, root: root, reader: reader)
        guard let stepsNode = members["steps"] else {
            throw reader.error(at: root, path: nil, "missing \"steps\": expected an array of steps")
        }
        guard case .array(let stepNodes) = stepsNode.value else {
            throw reader.error(
                at: stepsNode, path: "steps", "expected an array of steps, found \(stepsNode.value.typeName)")
        }
        return (settings, stepNodes)
    }

    /// The settings part of a document (also the first line of a JSONL timeline).
    static func decodeSettings(_ members: [String: JSONNode], root: JSONNode, reader: FieldReader) throws(TimelineError)
        -> TimelineSettings
    {
        var settings = TimelineSettings()
        if let node = members["startTime"] { settings.startTime = try reader.startTime(node, path: "startTime") }
        if let node = members["hub"] {
            let name = try reader.string(node, path: "hub")
            guard let hub = HubKind(rawValue: name) else {
                throw reader.error(at: node, path: "hub", "unknown hub \"\(name)\": expected \"core\" or \"ads\"")
            }
            settings.hub = hub
        }
        if let node = members["metrics"] { settings.metrics = try reader.bool(node, path: "metrics") }
        if let node = members["pingInterval"] {
            settings.pingInterval = try reader.milliseconds(node, path: "pingInterval")
        }
        if let node = members["until"] { settings.until = try reader.milliseconds(node, path: "until") }
        guard let trackersNode = members["trackers"] else {
            throw reader.error(
                at: root, path: nil, "missing \"trackers\": expected an array such as [{\"name\": \"content\"}]")
        }
        settings.trackers = try decodeTrackers(trackersNode, reader: reader)
        return settings
    }

    static func decodeTrackers(_ node: JSONNode, reader: FieldReader) throws(TimelineError) -> [TrackerSpec] {
        guard case .array(let items) = node.value, !items.isEmpty else {
            throw reader.error(
                at: node, path: "trackers", "expected a non-empty array of trackers, found \(describe(node.value))")
        }
        var specs: [TrackerSpec] = []
        var names = Set<String>()
        for (index, item) in items.enumerated() {
            let path = "trackers[\(index)]"
            let fields = try reader.object(item, path: path, allowed: trackerKeys)
            guard let nameNode = fields["name"] else {
                throw reader.error(
                    at: item, path: path, "missing \"name\": expected a tracker name such as \"content\"")
            }
            let name = try reader.string(nameNode, path: path + ".name")
            guard !name.isEmpty else {
                throw reader.error(at: nameNode, path: path + ".name", "expected a non-empty name")
            }
            try reader.checkName(name, "tracker name", at: nameNode, path: path + ".name")
            guard names.insert(name).inserted else {
                throw reader.error(
                    at: nameNode, path: path + ".name", "duplicate tracker name \(QuotedInput.quoted(name))")
            }
            var kind = TrackerKind.generic
            if let n = fields["kind"] {
                let text = try reader.string(n, path: path + ".kind")
                guard let known = TrackerKind(rawValue: text) else {
                    let kinds = TrackerKind.allCases.map(\.rawValue).joined(separator: ", ")
                    let shown = QuotedInput.quoted(text)
                    throw reader.error(
                        at: n, path: path + ".kind", "unknown tracker kind \(shown): expected one of: \(kinds)")
                }
                kind = known
            }
            let isAds = try fields["isAdsTracker"].map { n throws(TimelineError) in
                try reader.bool(n, path: path + ".isAdsTracker")
            }
            let emitInit = try fields["emitTrackerInit"].map { n throws(TimelineError) in
                try reader.bool(n, path: path + ".emitTrackerInit")
            }
            specs.append(TrackerSpec(name: name, kind: kind, isAdsTracker: isAds, emitTrackerInit: emitInit))
        }
        return specs
    }

    private static func describe(_ value: JSONValue) -> String {
        if case .array = value { return "an empty array" }
        return value.typeName
    }
}
