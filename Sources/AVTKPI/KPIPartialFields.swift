import AVTJSON
import AVTTimeline

/// The members of one object of a partial file, taken one by one: each must be there with its
/// type (a located error says which and where), and none may be left that the format lacks.
struct KPIPartialFields {
    private var members: [JSONMember]
    private let file: String
    private let line: Int

    init(_ members: [JSONMember], file: String, line: Int) {
        self.members = members
        self.file = file
        self.line = line
    }

    /// A whole number from 0 to 2^53 (larger ones are not exact in JSON readers); nil otherwise.
    static func bounded(_ value: JSONValue) -> Int? {
        guard case .int(let i) = value, i >= 0, i <= JSONValue.maxExactInteger else { return nil }
        return i
    }

    mutating func take(_ key: String) -> JSONNode? {
        guard let n = members.firstIndex(where: { $0.key == key }) else { return nil }
        return members.remove(at: n).node
    }

    private func error(_ key: String, _ what: String, at node: JSONNode?) -> TimelineError {
        TimelineError(
            file: file, location: node?.location ?? SourceLocation(line: line, column: 1),
            message: "expected \"\(key)\": \(what)" + (node.map { ", got \($0.value.typeName)" } ?? ", missing"))
    }

    mutating func required(_ key: String) throws(TimelineError) -> JSONNode {
        guard let node = take(key) else { throw error(key, "a value", at: nil) }
        return node
    }

    mutating func string(_ key: String) throws(TimelineError) -> String {
        let node = take(key)
        guard case .string(let s)? = node?.value else { throw error(key, "a string", at: node) }
        return s
    }

    mutating func int(_ key: String) throws(TimelineError) -> Int {
        let node = take(key)
        guard let value = node?.value, let i = Self.bounded(value) else {
            throw error(key, "a whole number from 0 to 2^53", at: node)
        }
        return i
    }

    mutating func optionalInt(_ key: String) throws(TimelineError) -> Int? {
        let node = take(key)
        if node?.value == .null { return nil }
        guard let value = node?.value, let i = Self.bounded(value) else {
            throw error(key, "null or a whole number from 0 to 2^53", at: node)
        }
        return i
    }

    mutating func array(_ key: String) throws(TimelineError) -> [JSONNode] {
        let node = take(key)
        guard case .array(let nodes)? = node?.value else { throw error(key, "an array", at: node) }
        return nodes
    }

    /// A member the format does not have is refused: a file from another version or another tool.
    func noneLeft() throws(TimelineError) {
        guard let member = members.first else { return }
        throw TimelineError(
            file: file, location: member.node.location,
            message: "unexpected member \"\(member.key)\" in a kpi partial file")
    }
}
