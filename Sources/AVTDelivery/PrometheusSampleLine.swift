import AVTOutput

/// One OpenMetrics sample line as `PrometheusSampleWriter` prints it
/// (`name{label="value",…} value seconds.mmm`), read back for remote write: `send` reads the
/// dead-letter file's lines, and a run reads each series' labels from its text once
/// (`RemoteWriteSeriesTable`), so that both send exactly what the lines say. Anything else is nil
/// (a dead-letter file edited by hand).
package struct PrometheusSampleLine: Sendable {
    /// `__name__` first, then the labels as written.
    package var labels: [(name: String, value: String)]
    package var value: Double
    package var milliseconds: Int

    /// Read byte by byte: walking the line's characters (grapheme clusters) cost more than the
    /// rest of remote write together.
    package init?(_ line: String) {
        let bytes = Array(line.utf8)
        var i = 0
        while i < bytes.count, bytes[i] != UInt8(ascii: "{"), bytes[i] != UInt8(ascii: " ") { i += 1 }
        guard i > 0 else { return nil }
        var labels: [(name: String, value: String)] = [("__name__", String(decoding: bytes[0..<i], as: UTF8.self))]
        if i < bytes.count, bytes[i] == UInt8(ascii: "{") {
            i += 1
            while true {
                guard i < bytes.count else { return nil }
                if bytes[i] == UInt8(ascii: "}") { break }
                let keyStart = i
                while i < bytes.count, bytes[i] != UInt8(ascii: "=") { i += 1 }
                guard i + 1 < bytes.count, i > keyStart, bytes[i + 1] == UInt8(ascii: "\"") else { return nil }
                let key = String(decoding: bytes[keyStart..<i], as: UTF8.self)
                i += 2
                var value: [UInt8] = []
                while true {
                    guard i < bytes.count else { return nil }
                    let byte = bytes[i]
                    i += 1
                    if byte == UInt8(ascii: "\"") { break }
                    if byte == UInt8(ascii: "\\") {
                        guard i < bytes.count else { return nil }
                        value.append(bytes[i] == UInt8(ascii: "n") ? 0x0A : bytes[i])
                        i += 1
                    } else {
                        value.append(byte)
                    }
                }
                labels.append((key, String(decoding: value, as: UTF8.self)))
                if i < bytes.count, bytes[i] == UInt8(ascii: ",") { i += 1 }
            }
            i += 1
        }
        // The value and the timestamp, separated by spaces.
        var fields: [Range<Int>] = []
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: " ") {
                i += 1
                continue
            }
            let start = i
            while i < bytes.count, bytes[i] != UInt8(ascii: " ") { i += 1 }
            fields.append(start..<i)
            guard fields.count <= 2 else { return nil }
        }
        guard fields.count == 2,
            let value = Self.number(Substring(String(decoding: bytes[fields[0]], as: UTF8.self))),
            let ms = Self.milliseconds(bytes[fields[1]])
        else { return nil }
        self.labels = labels
        self.value = value
        self.milliseconds = ms
    }

    /// OpenMetrics spells the specials `NaN`, `+Inf` and `-Inf`.
    static func number(_ text: Substring) -> Double? {
        switch text {
        case "NaN": return .nan
        case "+Inf": return .infinity
        case "-Inf": return -.infinity
        default:
            guard text.first.map({ $0.isNumber || $0 == "-" || $0 == "+" || $0 == "." }) == true else { return nil }
            return Double(text)
        }
    }

    /// `seconds.mmm` (three decimals, as written), digit by digit: no rounding.
    static func milliseconds(_ text: ArraySlice<UInt8>) -> Int? {
        let negative = text.first == UInt8(ascii: "-")
        let digits = negative ? text.dropFirst() : text
        guard let dot = digits.firstIndex(of: UInt8(ascii: ".")), dot > digits.startIndex,
            digits.endIndex - dot == 4
        else { return nil }
        var seconds = 0
        for byte in digits[..<dot] {
            guard (0x30...0x39).contains(byte), seconds <= (Int.max / 1000 - 1 - Int(byte - 0x30)) / 10 else {
                return nil
            }
            seconds = seconds * 10 + Int(byte - 0x30)
        }
        var fraction = 0
        for byte in digits[(dot + 1)...] {
            guard (0x30...0x39).contains(byte) else { return nil }
            fraction = fraction * 10 + Int(byte - 0x30)
        }
        let ms = seconds * 1000 + fraction
        return negative ? -ms : ms
    }
}
