import AVTJSON
import AVTTimeline

/// Reads JSON Lines output records, one per non-blank line.
package enum OutputLog {
    package static func read(_ input: ByteInput) throws(TimelineError) -> [OutputRecord] {
        var lines = LineReader(input)
        var records: [OutputRecord] = []
        let file = input.name
        while let record = try lines.nextNonBlankLine({ (bytes, line) throws(TimelineError) in
            try parse(bytes, line: line, file: file)
        }) {
            records.append(record)
        }
        return records
    }

    package static func read(path: String) throws(TimelineError) -> [OutputRecord] {
        try read(ByteInput(path: path))
    }

    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, line: Int, file: String) throws(TimelineError)
        -> OutputRecord
    {
        let node: JSONNode
        do {
            node = try JSONParser.parse(bytes, firstLine: line)
        } catch {
            throw TimelineError(file: file, location: error.location, message: error.message)
        }
        guard case .object(let members) = node.value else {
            throw TimelineError(
                file: file, location: node.location, message: "expected a record object, found \(node.value.typeName)")
        }
        func field(_ name: String) -> JSONNode? { members.first { $0.key == name }?.node }
        func string(_ name: String) -> String? {
            if case .string(let s)? = field(name)?.value { return s }
            return nil
        }
        guard let type = string("type"), type == "event" || type == "metric" else {
            throw TimelineError(
                file: file, location: node.location, message: "expected a record with \"type\": \"event\" or \"metric\""
            )
        }
        let labelKey = type == "event" ? "action" : "name"
        guard let label = string(labelKey) else {
            throw TimelineError(
                file: file, location: node.location, message: "expected a string \"\(labelKey)\" in a \(type) record")
        }
        var t: Int?
        if let tNode = field("t") {
            guard case .int(let value) = tNode.value else {
                throw TimelineError(file: file, location: tNode.location, message: "expected an integer \"t\"")
            }
            t = value
        }
        var attributes: [(key: String, value: JSONValue)] = []
        if let node = field("attributes") {
            guard case .object(let items) = node.value else {
                throw TimelineError(file: file, location: node.location, message: "expected an object of attributes")
            }
            attributes = items.map { ($0.key, $0.node.value) }.sorted { $0.0 < $1.0 }
        }
        return OutputRecord(
            line: line, type: type, session: string("session"), t: t, label: label, tracker: string("tracker"),
            value: field("value")?.value, attributes: attributes, metricType: string("metricType"))
    }
}
