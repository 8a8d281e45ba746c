import AVTCore
import AVTFormats
import AVTJSON
import AVTTrackers

/// Reads the JSON timeline document (docs/timelines.md) and checks every
/// field, so a replay never starts on input it would have to guess about.
public enum TimelineDecoder {
    public static let settingKeys = ["startTime", "hub", "metrics", "pingInterval", "until", "trackers"]
    public static let trackerKeys = ["name", "kind", "isAdsTracker", "emitTrackerInit"]
    public static let stepKeys = ["t", "tracker", "set", "observe", "action", "attributes"]

    public static func decode(_ bytes: [UInt8], file: String) throws(TimelineError) -> Timeline {
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw TimelineError(file: file, location: error.location, message: error.message)
        }
        let reader = FieldReader(file: file)
        let members = try reader.object(root, path: "timeline", allowed: settingKeys + ["steps"])
        let settings = try decodeSettings(members, root: root, reader: reader)
        guard let stepsNode = members["steps"] else {
            throw reader.error(at: root, path: nil, "missing \"steps\": expected an array of steps")
        }
        guard case .array(let stepNodes) = stepsNode.value else {
            throw reader.error(at: stepsNode, path: "steps", "expected an array of steps, found \(stepsNode.value.typeName)")
        }
        var stepReader = StepReader(trackers: settings.trackers, reader: reader)
        var steps: [Step] = []
        steps.reserveCapacity(stepNodes.count)
        for (index, node) in stepNodes.enumerated() {
            steps.append(try stepReader.step(node, index: index))
        }
        return Timeline(settings: settings, steps: steps)
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
            throw reader.error(at: root, path: nil, "missing \"trackers\": expected an array such as [{\"name\": \"content\"}]")
        }
        settings.trackers = try decodeTrackers(trackersNode, reader: reader)
        return settings
    }

    static func decodeTrackers(_ node: JSONNode, reader: FieldReader) throws(TimelineError) -> [TrackerSpec] {
        guard case .array(let items) = node.value, !items.isEmpty else {
            throw reader.error(at: node, path: "trackers", "expected a non-empty array of trackers, found \(describe(node.value))")
        }
        var specs: [TrackerSpec] = []
        for (index, item) in items.enumerated() {
            let path = "trackers[\(index)]"
            let fields = try reader.object(item, path: path, allowed: trackerKeys)
            guard let nameNode = fields["name"] else {
                throw reader.error(at: item, path: path, "missing \"name\": expected a tracker name such as \"content\"")
            }
            let name = try reader.string(nameNode, path: path + ".name")
            guard !name.isEmpty else { throw reader.error(at: nameNode, path: path + ".name", "expected a non-empty name") }
            guard !specs.contains(where: { $0.name == name }) else {
                throw reader.error(at: nameNode, path: path + ".name", "duplicate tracker name \"\(name)\"")
            }
            var kind = TrackerKind.generic
            if let n = fields["kind"] {
                let text = try reader.string(n, path: path + ".kind")
                guard let known = TrackerKind(rawValue: text) else {
                    let kinds = TrackerKind.allCases.map(\.rawValue).joined(separator: ", ")
                    throw reader.error(at: n, path: path + ".kind", "unknown tracker kind \"\(text)\": expected one of: \(kinds)")
                }
                kind = known
            }
            let isAds = try fields["isAdsTracker"].map { n throws(TimelineError) in try reader.bool(n, path: path + ".isAdsTracker") }
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

/// Decodes step objects one at a time, checking that time never runs backwards.
package struct StepReader {
    let trackerIndex: [String: Int]
    let trackerKinds: [TrackerKind]
    let trackerList: String
    let reader: FieldReader
    private(set) var previousT: Int?

    init(trackers: [TrackerSpec], reader: FieldReader) {
        var index: [String: Int] = [:]
        for (i, spec) in trackers.enumerated() { index[spec.name] = i }
        self.trackerIndex = index
        self.trackerKinds = trackers.map(\.kind)
        self.trackerList = trackers.map(\.name).joined(separator: ", ")
        self.reader = reader
    }

    /// Records a step decoded elsewhere (the JSONL scanner), for the time-order check.
    mutating func accepted(t: Int) { previousT = t }

    mutating func step(_ node: JSONNode, index: Int) throws(TimelineError) -> Step {
        // Built only when an error needs it: this runs for every step.
        func path(_ field: String = "") -> String { "steps[\(index)]" + field }
        guard case .object(let members) = node.value else {
            throw reader.error(at: node, path: path(), "expected an object, found \(node.value.typeName)")
        }
        // One pass over the members, no dictionary: this runs once per step of every timeline.
        var tNode: JSONNode?
        var trackerNode: JSONNode?
        var actionNode: JSONNode?
        var setNode: JSONNode?
        var attributesNode: JSONNode?
        var observeNode: JSONNode?
        for member in members {
            switch member.key {
            case "t": try claim(&tNode, member, path: path())
            case "tracker": try claim(&trackerNode, member, path: path())
            case "action": try claim(&actionNode, member, path: path())
            case "set": try claim(&setNode, member, path: path())
            case "observe": try claim(&observeNode, member, path: path())
            case "attributes": try claim(&attributesNode, member, path: path())
            default:
                throw reader.error(
                    at: member.node, path: path(),
                    "unknown key \"\(member.key)\": expected one of: \(TimelineDecoder.stepKeys.joined(separator: ", "))")
            }
        }
        guard let tNode else {
            throw reader.error(at: node, path: path(), "missing \"t\": expected the step's virtual time in integer milliseconds")
        }
        let t = try reader.milliseconds(tNode, path: path(".t"))
        if let previousT, t < previousT {
            throw reader.error(
                at: tNode, path: path(".t"),
                "t \(t) is earlier than the previous step's t \(previousT): steps must be in non-decreasing time order")
        }
        guard let trackerNode else {
            throw reader.error(at: node, path: path(), "missing \"tracker\": expected one of: \(trackerList)")
        }
        let trackerName = try reader.string(trackerNode, path: path(".tracker"))
        guard let tracker = trackerIndex[trackerName] else {
            throw reader.error(
                at: trackerNode, path: path(".tracker"), "unknown tracker \"\(trackerName)\": expected one of: \(trackerList)")
        }
        var step = Step(t: t, tracker: tracker, origin: StepOrigin(index: index, location: node.location))
        if let actionNode {
            let name = try reader.string(actionNode, path: path(".action"))
            guard !name.isEmpty else {
                throw reader.error(at: actionNode, path: path(".action"), "expected an action name such as \"Start\"")
            }
            step.action = Action(name)
        }
        if let setNode {
            step.set = try reader.attributeMap(setNode, path: path(".set"))
        }
        if let observeNode {
            step.observe = try observations(observeNode, kind: trackerKinds[tracker], path: path(".observe"))
        }
        if let attributesNode {
            guard step.action != nil else {
                throw reader.error(at: attributesNode, path: path(".attributes"), "\"attributes\" needs an \"action\" in the same step")
            }
            step.attributes = try reader.attributeMap(attributesNode, path: path(".attributes")).compactMap { entry in
                entry.value.map { (entry.attribute, $0) }
            }
        }
        guard step.action != nil || setNode != nil || observeNode != nil else {
            throw reader.error(at: node, path: path(), "a step needs an \"action\", a \"set\" or an \"observe\"")
        }
        previousT = t
        return step
    }

    /// An `observe` object: every key must be one the tracker's kind knows, with a value it accepts.
    private func observations(_ node: JSONNode, kind: TrackerKind, path: @autoclosure () -> String) throws(TimelineError)
        -> [Observation]
    {
        guard case .object(let members) = node.value else {
            throw reader.error(at: node, path: path(), "expected an object of player observations, found \(node.value.typeName)")
        }
        let rules = kind.observationRules
        var result: [Observation] = []
        result.reserveCapacity(members.count)
        for member in members {
            guard let rule = rules[member.key] else {
                let valid = rules.keys.sorted().joined(separator: ", ")
                throw reader.error(
                    at: member.node, path: path(),
                    rules.isEmpty
                        ? "a \(kind.rawValue) tracker takes no observations (give it a kind such as avplayer, ima, html5 or exoplayer)"
                        : "unknown observation \"\(member.key)\" for a \(kind.rawValue) tracker: expected one of: \(valid)")
            }
            if let problem = rule.diagnose(member.node.value) {
                throw TimelineError(
                    file: reader.file, location: problem.location ?? member.node.location,
                    path: path() + "." + member.key + problem.path, message: problem.message)
            }
            guard !result.contains(where: { $0.key == member.key }) else {
                throw reader.error(at: member.node, path: path(), "duplicate observation \"\(member.key)\"")
            }
            result.append(Observation(member.key, member.node.value))
        }
        if let problem = kind.trackerType.checkObservations(&result) {
            let blamed = problem.key.flatMap { key in members.first { $0.key == key }?.node } ?? node
            throw reader.error(at: blamed, path: path() + (problem.key.map { "." + $0 } ?? ""), problem.message)
        }
        return result
    }

    private func claim(_ slot: inout JSONNode?, _ member: JSONMember, path: @autoclosure () -> String) throws(TimelineError) {
        guard slot == nil else { throw reader.error(at: member.node, path: path(), "duplicate key \"\(member.key)\"") }
        slot = member.node
    }
}

/// Typed access to JSON nodes with errors that say where and what was expected.
package struct FieldReader {
    /// Times are kept within ±(2^53 − 1) ms so that start time + t never overflows and every
    /// value survives a round trip through JSON tools that read numbers as doubles.
    static let maxMilliseconds = 9_007_199_254_740_991

    let file: String

    func error(at node: JSONNode?, path: String?, _ message: String) -> TimelineError {
        TimelineError(file: file, location: node?.location, path: path, message: message)
    }

    /// The members of an object by key; rejects duplicates and keys not in `allowed`.
    func object(_ node: JSONNode, path: String, allowed: [String]) throws(TimelineError) -> [String: JSONNode] {
        guard case .object(let members) = node.value else {
            throw error(at: node, path: path, "expected an object, found \(node.value.typeName)")
        }
        var fields: [String: JSONNode] = [:]
        for member in members {
            guard allowed.contains(member.key) else {
                throw error(
                    at: member.node, path: path,
                    "unknown key \"\(member.key)\": expected one of: \(allowed.joined(separator: ", "))")
            }
            guard fields.updateValue(member.node, forKey: member.key) == nil else {
                throw error(at: member.node, path: path, "duplicate key \"\(member.key)\"")
            }
        }
        return fields
    }

    func string(_ node: JSONNode, path: @autoclosure () -> String) throws(TimelineError) -> String {
        guard case .string(let s) = node.value else {
            throw error(at: node, path: path(), "expected a string, found \(node.value.typeName)")
        }
        return s
    }

    func bool(_ node: JSONNode, path: @autoclosure () -> String) throws(TimelineError) -> Bool {
        guard case .bool(let b) = node.value else {
            throw error(at: node, path: path(), "expected true or false, found \(node.value.typeName)")
        }
        return b
    }

    /// A non-negative integer number of milliseconds.
    func milliseconds(_ node: JSONNode, path: @autoclosure () -> String) throws(TimelineError) -> Int {
        guard case .int(let ms) = node.value else {
            throw error(at: node, path: path(), "expected an integer number of milliseconds, found \(node.value.typeName)")
        }
        guard ms >= 0 else { throw error(at: node, path: path(), "expected milliseconds ≥ 0, found \(ms)") }
        guard ms <= Self.maxMilliseconds else {
            throw error(at: node, path: path(), "\(ms) ms is too large: at most \(Self.maxMilliseconds) (2^53 − 1)")
        }
        return ms
    }

    /// ISO-8601 text or epoch milliseconds.
    func startTime(_ node: JSONNode, path: @autoclosure () -> String) throws(TimelineError) -> Int {
        switch node.value {
        case .int(let ms):
            guard ms.magnitude <= UInt(Self.maxMilliseconds) else {
                throw error(at: node, path: path(), "epoch milliseconds out of range: at most ±\(Self.maxMilliseconds)")
            }
            return ms
        case .string(let text):
            guard let ms = ISO8601.parse(text) else {
                throw error(
                    at: node, path: path(),
                    "expected an ISO-8601 date-time such as \"2026-03-01T12:00:00Z\" or epoch milliseconds, found \"\(text)\"")
            }
            return ms
        default:
            throw error(at: node, path: path(), "expected an ISO-8601 string or epoch milliseconds, found \(node.value.typeName)")
        }
    }

    /// An object of attribute name → scalar (or null) value, in source order.
    func attributeMap(_ node: JSONNode, path: @autoclosure () -> String) throws(TimelineError) -> [(attribute: Attribute, value: AttributeValue?)] {
        guard case .object(let members) = node.value else {
            throw error(at: node, path: path(), "expected an object of attribute names to values, found \(node.value.typeName)")
        }
        var entries: [(attribute: Attribute, value: AttributeValue?)] = []
        entries.reserveCapacity(members.count)
        for member in members {
            guard !member.key.isEmpty else { throw error(at: member.node, path: path(), "attribute names must not be empty") }
            let attribute = Attribute(member.key)
            guard !entries.contains(where: { $0.attribute == attribute }) else {
                throw error(at: member.node, path: path(), "duplicate attribute \"\(member.key)\"")
            }
            entries.append((attribute, try scalar(member.node, path: path() + "." + member.key)))
        }
        return entries
    }

    func scalar(_ node: JSONNode, path: @autoclosure () -> String) throws(TimelineError) -> AttributeValue? {
        switch node.value {
        case .null: return nil
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(i)
        case .double(let d): return .double(d)
        case .string(let s): return .string(s)
        case .array, .object:
            throw error(at: node, path: path(), "expected a string, number, boolean or null, found \(node.value.typeName)")
        }
    }
}
