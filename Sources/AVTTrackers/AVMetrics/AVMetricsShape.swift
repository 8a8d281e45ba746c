import AVTFormats
import AVTJSON

/// The shape of one AVMetrics property value as an app serializes it (Apple's names and units), with
/// a checker that names the exact place inside a nested value that is wrong.
package indirect enum AVMetricsShape: Sendable {
    case string
    case bool
    /// A `Date`: ISO-8601 text such as `"2026-03-01T12:00:03.250Z"`.
    case date
    /// A number ≥ `min` (seconds, bits per second); any number when `min` is nil.
    case number(min: Double?)
    /// An integer ≥ `min` (counts).
    case integer(min: Int?)
    /// An object with these members, the `required` ones present; when `open`, other members are
    /// allowed and ignored (for blobs such as URLSessionTaskMetrics).
    case object(name: String, members: [(String, AVMetricsShape)], required: [String], open: Bool)
    case array(of: AVMetricsShape)
    /// A nested event object of one class: its properties, with an optional `event` member that
    /// must name the class.
    case event(className: String)

    var expected: String {
        switch self {
        case .string: return "a string"
        case .bool: return "true or false"
        case .date: return "an ISO-8601 date such as \"2026-03-01T12:00:03.250Z\""
        case .number(let min): return min.map { "a number ≥ \(Self.text($0))" } ?? "a number"
        case .integer(let min): return min.map { "an integer ≥ \($0)" } ?? "an integer"
        case .object(let name, _, _, _): return name
        case .array(let element): return "an array of \(element.plural)"
        case .event(let className): return "an \(className) object"
        }
    }

    private var plural: String {
        switch self {
        case .object(let name, _, _, _): return name.hasPrefix("{") ? name + " objects" : name
        case .event(let className): return "\(className) objects"
        default: return expected
        }
    }

    private static func text(_ d: Double) -> String { d == d.rounded() ? String(Int(d)) : String(d) }

    /// Checks `value`; `path` is where it sits below the observation key.
    func diagnose(_ value: JSONValue, path: String, location: SourceLocation?) -> ObservationProblem? {
        func wrong() -> ObservationProblem {
            ObservationProblem(path: path, expected: expected, found: value, location: location)
        }
        switch self {
        case .string:
            if case .string = value { return nil }
            return wrong()
        case .bool:
            if case .bool = value { return nil }
            return wrong()
        case .date:
            if case .string(let text) = value, ISO8601.parse(text) != nil { return nil }
            return wrong()
        case .number(let min):
            let n: Double
            switch value {
            case .int(let i): n = Double(i)
            case .double(let d): n = d
            default: return wrong()
            }
            if let min, !(n >= min) { return wrong() }
            return nil
        case .integer(let min):
            guard case .int(let i) = value else { return wrong() }
            if let min, i < min { return wrong() }
            return nil
        case .array(let element):
            guard case .array(let items) = value else { return wrong() }
            for (i, item) in items.enumerated() {
                if let problem = element.diagnose(item.value, path: path + "[\(i)]", location: item.location) {
                    return problem
                }
            }
            return nil
        case .object(_, let members, let required, let open):
            return Self.checkObject(
                value, members: members, required: required, open: open, path: path, location: location,
                expected: expected)
        case .event(let className):
            guard let properties = AVMetricsSchema.properties(of: className) else { return wrong() }
            let members = [("event", AVMetricsShape.string)] + properties
            if let problem = Self.checkObject(
                value, members: members, required: AVMetricsSchema.required(of: className), open: false, path: path,
                location: location, expected: expected)
            {
                return problem
            }
            if case .object(let given) = value, let named = given.first(where: { $0.key == "event" }),
                named.node.value != .string(className)
            {
                return ObservationProblem(
                    path: path + ".event", expected: "\"\(className)\"", found: named.node.value,
                    location: named.node.location)
            }
            return nil
        }
    }

    private static func checkObject(
        _ value: JSONValue, members: [(String, AVMetricsShape)], required: [String], open: Bool, path: String,
        location: SourceLocation?, expected: String
    ) -> ObservationProblem? {
        guard case .object(let given) = value else {
            return ObservationProblem(path: path, expected: expected, found: value, location: location)
        }
        var seen: Set<String> = []
        for member in given {
            guard seen.insert(member.key).inserted else {
                return ObservationProblem(
                    path: path, expected: "each member once", found: "\"\(member.key)\" twice",
                    location: member.node.location)
            }
            guard let shape = members.first(where: { $0.0 == member.key })?.1 else {
                if open { continue }
                return ObservationProblem(
                    path: path, expected: "one of: " + members.map(\.0).joined(separator: ", "),
                    found: "unknown member \"\(member.key)\"", location: member.node.location)
            }
            if let problem = shape.diagnose(
                member.node.value, path: path + "." + member.key, location: member.node.location)
            {
                return problem
            }
        }
        if let missing = required.first(where: { !seen.contains($0) }) {
            return ObservationProblem(
                path: path, expected: "a member \"\(missing)\"", found: "an object without it", location: location)
        }
        return nil
    }
}
