import AVTOutput

/// `send --label NAME=VALUE`: adds labels to dead-letter lines before they are sent again, as
/// `run --label` would have written them: a label on a Prometheus sample, a tag on an InfluxDB
/// line, a path component after the Graphite prefix. A label the line already has takes the new
/// value. New Relic and Mediastream lines are left as they are (they have no series).
package struct DeadLetterRelabel: Sendable {
    package var labels: [(name: String, value: String)]
    /// The Graphite prefix the lines were written with: label values go right after it.
    package var graphitePrefix: String

    package init(labels: [(name: String, value: String)], graphitePrefix: String = "OAVT") {
        self.labels = labels
        self.graphitePrefix = graphitePrefix
    }

    /// The lines of one dead-letter format with the labels added; unchanged without labels,
    /// for other formats, and for a line that does not read as its format (which the server then
    /// refuses, with its reason, as it would have).
    package func apply(to lines: [String], format: String) -> [String] {
        guard !labels.isEmpty else { return lines }
        if format == PrometheusDelivery.format { return lines.map { sample($0) ?? $0 } }
        if format == "graphite" { return lines.map(graphite) }
        if format.hasPrefix("influx") { return lines.map(influx) }
        return lines
    }

    private func sample(_ line: String) -> String? {
        guard var parsed = PrometheusSampleLine(line), parsed.labels.first?.name == "__name__" else { return nil }
        // The value and timestamp are the line's last two fields (neither holds a space).
        guard let last = line.lastIndex(of: " "), let space = line[..<last].lastIndex(of: " ") else { return nil }
        for (name, value) in labels {
            if let i = parsed.labels.firstIndex(where: { $0.name == name }) {
                parsed.labels[i].value = value
            } else {
                parsed.labels.append((name, value))
            }
        }
        let sorted = parsed.labels.dropFirst().sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        let inside = sorted.map { "\($0.name)=\"\(PrometheusSampleWriter.escaped($0.value))\"" }
        return parsed.labels[0].value + "{" + inside.joined(separator: ",") + "}" + line[space...]
    }

    private func graphite(_ line: String) -> String {
        guard let space = line.firstIndex(of: " ") else { return line }
        let path = line[..<space].split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let prefix = graphitePrefix.split(separator: ".").map { GraphiteEncoder.sanitize(String($0)) }
        guard path.count > prefix.count, Array(path.prefix(prefix.count)) == prefix else { return line }
        let added = labels.map { GraphiteEncoder.sanitize($0.value) }
        return (prefix + added + path.dropFirst(prefix.count)).joined(separator: ".") + line[space...]
    }

    /// Tags go before the first unescaped space (the end of the measurement and tags).
    private func influx(_ line: String) -> String {
        var bytes = Array(line.utf8)
        var end = 0
        while end < bytes.count, bytes[end] != UInt8(ascii: " ") {
            end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
        }
        guard end < bytes.count else { return line }
        var key = String(decoding: bytes[..<end], as: UTF8.self)
        for (name, value) in labels {
            let tag = "," + name + "="
            if let range = key.range(of: tag) {
                // Drop the old value: up to the next unescaped comma.
                var cut = range.upperBound
                while cut < key.endIndex, key[cut] != "," {
                    if key[cut] == "\\" {
                        cut = key.index(after: cut)
                        if cut == key.endIndex { break }
                    }
                    cut = key.index(after: cut)
                }
                key.removeSubrange(range.lowerBound..<cut)
            }
            key += tag + Self.escapedTag(value)
        }
        bytes.replaceSubrange(0..<end, with: Array(key.utf8))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A tag value as line protocol reads it: `,`, `=` and space behind a backslash.
    static func escapedTag(_ value: String) -> String {
        var out = ""
        for character in value {
            if character == "," || character == "=" || character == " " { out.append("\\") }
            out.append(character)
        }
        return out
    }
}
