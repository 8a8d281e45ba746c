import AVTJSON

/// One row of the media-internals log table copied as text: `TIME | key | value` (GitHub's
/// markdown rendering, with `|` around it too) or tab-separated. TIME is `HH:MM:SS.mmm`, or in
/// older Chrome `HH:MM:SS mmm` with unpadded milliseconds (`00:11:56 52` is 52 ms).
package struct ChromeTableRow: Equatable {
    /// Milliseconds since the player's first entry.
    package var time: Int
    package var key: String
    /// The third cell: JSON when it parses as JSON (`{"state": …}`, numbers), else a string.
    package var value: JSONValue

    package static func parse(_ line: [UInt8]) -> ChromeTableRow? {
        var text = Substring(String(decoding: line, as: UTF8.self))
        text = text.drop { $0 == " " || $0 == "\t" || $0 == "|" }
        guard let (time, rest) = Self.time(text) else { return nil }
        // The separator after the time: `|` (markdown) or a tab.
        var cells = rest.drop { $0 == " " }
        guard let separator = cells.first, separator == "|" || separator == "\t" else { return nil }
        cells = cells.dropFirst()
        let parts = cells.split(separator: separator, maxSplits: 1, omittingEmptySubsequences: false)
        let key = parts[0].trimmingBlanks()
        guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return nil }
        var valueText = parts.count > 1 ? parts[1].trimmingBlanks() : ""
        if separator == "|", valueText.hasSuffix("|") { valueText = valueText.dropLast().trimmingBlanks() }
        let value: JSONValue
        if let node = try? JSONParser.parse(Array(valueText.utf8)) {
            value = node.value
        } else {
            value = .string(String(valueText))
        }
        return ChromeTableRow(time: time, key: String(key), value: value)
    }

    /// `HH:MM:SS.mmm` or `HH:MM:SS m…` at the start.
    private static func time(_ text: Substring) -> (Int, Substring)? {
        let bytes = Array(text.utf8.prefix(16))
        func digits(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= bytes.count else { return nil }
            var value = 0
            for b in bytes[start..<(start + count)] {
                guard b >= 0x30, b <= 0x39 else { return nil }
                value = value * 10 + Int(b - 0x30)
            }
            return value
        }
        guard bytes.count >= 9, bytes[2] == 0x3A, bytes[5] == 0x3A, let h = digits(0, 2), let m = digits(3, 2),
            let s = digits(6, 2), m < 60, s < 61
        else { return nil }
        var end = 8
        var ms = 0
        if end < bytes.count, bytes[end] == 0x2E || bytes[end] == 0x20 {
            var n = 0
            var j = end + 1
            while j < bytes.count, n < 3, bytes[j] >= 0x30, bytes[j] <= 0x39 {
                ms = ms * 10 + Int(bytes[j] - 0x30)
                n += 1
                j += 1
            }
            // `.5` is 500 ms; `00:11:56 52` (old Chrome, unpadded) is 52.
            if bytes[end] == 0x2E { ms *= [1, 100, 10, 1][n] }
            if n > 0 { end = j }
        }
        let rest = text.dropFirst(String(decoding: bytes[0..<end], as: UTF8.self).count)
        return (((h * 60 + m) * 60 + s) * 1000 + ms, rest)
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    func trimmingBlanks() -> Substring {
        var text = drop { $0 == " " || $0 == "\t" }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}
