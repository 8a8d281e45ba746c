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

    /// The largest integer a record may carry: 2^53 - 1, the exact range of JSON numbers and
    /// the largest time a timeline may hold.
    static let maximumInteger = UInt(FieldReader.maxMilliseconds)

    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>, line: Int, file: String) throws(TimelineError)
        -> OutputRecord
    {
        let node = try JSONParser.parse(bytes, firstLine: line, file: file)
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
            guard case .int(let value) = tNode.value, value.magnitude <= maximumInteger else {
                throw TimelineError(
                    file: file, location: tNode.location,
                    message: "expected an integer \"t\" of at most 2^53 - 1 in magnitude")
            }
            t = value
        }
        var attributes: [(key: String, value: JSONValue)] = []
        if let node = field("attributes") {
            guard case .object(let items) = node.value else {
                throw TimelineError(file: file, location: node.location, message: "expected an object of attributes")
            }
            // The KPIs and the report add these up: past JSON's exact range an integer is not a
            // time or a count avtreplay wrote, and sums of them could overflow.
            for item in items {
                if case .int(let value) = item.node.value, value.magnitude > maximumInteger {
                    throw TimelineError(
                        file: file, location: item.node.location,
                        message: "expected an integer attribute of at most 2^53 - 1 in magnitude")
                }
            }
            attributes = items.map { ($0.key, $0.node.value) }.sorted { $0.0 < $1.0 }
        }
        // The members read above by name and type; everything else (and a known name with
        // another type, such as a numeric tracker) is kept as it is, to be compared.
        let session = string("session")
        let tracker = string("tracker")
        let metricType = string("metricType")
        var known: Set<String> = ["type", labelKey, "t", "attributes", "value"]
        if session != nil { known.insert("session") }
        if tracker != nil { known.insert("tracker") }
        if metricType != nil { known.insert("metricType") }
        let others = members.filter { !known.contains($0.key) }.map { ($0.key, $0.node.value) }
        return OutputRecord(
            line: line, type: type, session: session, t: t, label: label, tracker: tracker,
            value: field("value")?.value, attributes: attributes, metricType: metricType,
            members: others.sorted { $0.0 < $1.0 })
    }
}
