import AVTOutput

/// One OpenMetrics sample line as `PrometheusSampleWriter` writes it
/// (`name{label="value",…} value seconds.mmm`), read back for remote write: the run sends
/// exactly the samples `--format openmetrics` prints, and `send` reads them from the dead-letter
/// file. Anything else is nil (a dead-letter file edited by hand).
package struct PrometheusSampleLine: Sendable {
    /// `__name__` first, then the labels as written.
    package var labels: [(name: String, value: String)]
    package var value: Double
    package var milliseconds: Int

    package init?(_ line: String) {
        var rest = Substring(line)
        let nameEnd = rest.firstIndex { $0 == "{" || $0 == " " } ?? rest.endIndex
        let name = rest[..<nameEnd]
        guard !name.isEmpty else { return nil }
        var labels: [(name: String, value: String)] = [("__name__", String(name))]
        rest = rest[nameEnd...]
        if rest.first == "{" {
            rest = rest.dropFirst()
            while rest.first != "}" {
                guard let eq = rest.firstIndex(of: "="), rest[rest.index(after: eq)...].first == "\"" else {
                    return nil
                }
                let key = String(rest[..<eq])
                rest = rest[rest.index(eq, offsetBy: 2)...]
                var value = ""
                while true {
                    guard let c = rest.first else { return nil }
                    rest = rest.dropFirst()
                    if c == "\"" { break }
                    if c == "\\" {
                        guard let next = rest.first else { return nil }
                        rest = rest.dropFirst()
                        value.append(next == "n" ? "\n" : next)
                    } else {
                        value.append(c)
                    }
                }
                guard !key.isEmpty else { return nil }
                labels.append((key, value))
                if rest.first == "," { rest = rest.dropFirst() }
            }
            rest = rest.dropFirst()
        }
        let fields = rest.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count == 2, let value = Self.number(fields[0]), let ms = Self.milliseconds(fields[1]) else {
            return nil
        }
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
    static func milliseconds(_ text: Substring) -> Int? {
        let negative = text.first == "-"
        let digits = negative ? text.dropFirst() : text
        let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1].count == 3, !parts[0].isEmpty, parts.allSatisfy({ $0.allSatisfy(\.isASCII) }),
            let seconds = Int(parts[0]), let fraction = Int(parts[1]), seconds <= Int.max / 1000 - 1
        else { return nil }
        let ms = seconds * 1000 + fraction
        return negative ? -ms : ms
    }
}
