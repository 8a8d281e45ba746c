import AVTCore
import AVTFormats
import AVTJSON
import AVTTrackers

/// Typed access to JSON nodes with errors that say where and what was expected.
package struct FieldReader {
    /// Times are kept within ±(2^53 − 1) ms so that start time + t never overflows and every
    /// value survives a round trip through JSON tools that read numbers as doubles.
    package static let maxMilliseconds = JSONValue.maxExactInteger

    let file: String
    var limits = InputLimits()

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
            throw error(
                at: node, path: path(), "expected an integer number of milliseconds, found \(node.value.typeName)")
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
                    "expected an ISO-8601 date-time such as \"2026-03-01T12:00:00Z\" or epoch milliseconds, found \"\(text)\""
                )
            }
            return ms
        default:
            throw error(
                at: node, path: path(),
                "expected an ISO-8601 string or epoch milliseconds, found \(node.value.typeName)")
        }
    }

    /// An object of attribute name → scalar (or null) value, in source order.
    func attributeMap(_ node: JSONNode, path: @autoclosure () -> String) throws(TimelineError) -> [(
        attribute: Attribute, value: AttributeValue?
    )] {
        guard case .object(let members) = node.value else {
            throw error(
                at: node, path: path(), "expected an object of attribute names to values, found \(node.value.typeName)")
        }
        var entries: [(attribute: Attribute, value: AttributeValue?)] = []
        entries.reserveCapacity(members.count)
        var repeats = RepeatedKeyCheck()
        for member in members {
            guard !member.key.isEmpty else {
                throw error(at: member.node, path: path(), "attribute names must not be empty")
            }
            let attribute = try self.attribute(member.key, at: member.node, path: path())
            guard !repeats.isRepeated(attribute, in: entries) else {
                throw error(at: member.node, path: path(), "duplicate attribute \(QuotedInput.quoted(member.key))")
            }
            entries.append((attribute, try scalar(member.node, path: path() + "." + member.key)))
        }
        return entries
    }

    /// The attribute of this name, within the name length and distinct-name limits.
    func attribute(_ name: String, at node: JSONNode, path: @autoclosure () -> String) throws(TimelineError)
        -> Attribute
    {
        try checkName(name, "attribute name", at: node, path: path())
        let attribute = Attribute(name)
        // Indexes are dense from 0, so an index past the limit means that many names exist.
        guard attribute.index < limits.maxKeys else { throw error(at: node, path: path(), limits.tooManyKeys) }
        return attribute
    }

    /// Refuses a name longer than `limits.maxNameBytes`.
    func checkName(_ name: String, _ what: String, at node: JSONNode, path: @autoclosure () -> String)
        throws(TimelineError)
    {
        guard name.utf8.count <= limits.maxNameBytes else {
            throw error(at: node, path: path(), limits.nameTooLong(what, bytes: name.utf8.count))
        }
    }

    func scalar(_ node: JSONNode, path: @autoclosure () -> String) throws(TimelineError) -> AttributeValue? {
        switch node.value {
        case .null: return nil
        case .bool(let b): return .bool(b)
        case .int(let i):
            // As `report` reads records: past JSON's exact range an integer is no count or time.
            guard i.magnitude <= UInt(JSONValue.maxExactInteger) else {
                throw error(at: node, path: path(), "\(i) is out of range: an integer of at most 2^53 − 1 in magnitude")
            }
            return .int(i)
        case .double(let d): return .double(d)
        case .string(let s): return .string(s)
        case .array, .object:
            throw error(
                at: node, path: path(), "expected a string, number, boolean or null, found \(node.value.typeName)")
        }
    }
}
