import AVTCore
import AVTFormats
import AVTJSON
import AVTTrackers

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
                    "unknown key \"\(member.key)\": expected one of: \(TimelineDecoder.stepKeys.joined(separator: ", "))"
                )
            }
        }
        guard let tNode else {
            throw reader.error(
                at: node, path: path(), "missing \"t\": expected the step's virtual time in integer milliseconds")
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
                at: trackerNode, path: path(".tracker"),
                "unknown tracker \(QuotedInput.quoted(trackerName)): expected one of: \(trackerList)")
        }
        var step = Step(t: t, tracker: tracker, origin: StepOrigin(index: index, location: node.location))
        if let actionNode {
            let name = try reader.string(actionNode, path: path(".action"))
            try reader.checkName(name, "action name", at: actionNode, path: path(".action"))
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
                throw reader.error(
                    at: attributesNode, path: path(".attributes"), "\"attributes\" needs an \"action\" in the same step"
                )
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
    private func observations(_ node: JSONNode, kind: TrackerKind, path: @autoclosure () -> String)
        throws(TimelineError)
        -> [Observation]
    {
        guard case .object(let members) = node.value else {
            throw reader.error(
                at: node, path: path(), "expected an object of player observations, found \(node.value.typeName)")
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
                        : "unknown observation \"\(member.key)\" for a \(kind.rawValue) tracker: expected one of: \(valid)"
                )
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

    private func claim(_ slot: inout JSONNode?, _ member: JSONMember, path: @autoclosure () -> String)
        throws(TimelineError)
    {
        guard slot == nil else { throw reader.error(at: member.node, path: path(), "duplicate key \"\(member.key)\"") }
        slot = member.node
    }
}
