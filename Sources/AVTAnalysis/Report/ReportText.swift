import AVTFormats
import AVTJSON
import AVTKPI
import AVTOutput

/// Text for the report, formatted without locales or Foundation so every machine writes the
/// same bytes: HTML escaping, clock times, seconds, fixed decimals.
package enum ReportText {
    /// Control characters go through `TerminalText` first (as check, JUnit and errors do): an
    /// ESC from a file name must not reach a page someone may `cat` or paste into a terminal.
    static func html(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for c in TerminalText.escapedKeepingNewlines(s).unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// The longest attribute text a tooltip holds, in characters.
    static let excerptLength = 200
    /// The longest attribute value the page's event data holds, in characters: the hover panel
    /// shows more of a value than a tooltip, but a 1 MB value must not make a 1 MB page per
    /// change (the report of a hostile timeline would be as large as its attributes allow).
    static let dataExcerptLength = 1000

    /// `s`, or its first `length` characters and `…`.
    static func excerpt(_ s: String, length: Int = excerptLength) -> String {
        // A string of at most `length` bytes has at most `length` characters: no counting.
        s.utf8.count <= length || s.count <= length ? s : String(s.prefix(length)) + "…"
    }

    /// `mm:ss.mmm`, or `h:mm:ss.mmm` from an hour on; negative times get a sign.
    static func clock(_ ms: Int, milliseconds: Bool = true) -> String {
        let sign = ms < 0 ? "-" : ""
        let v = abs(ms)
        let hours = v / 3_600_000
        let minutes = v / 60_000 % 60
        let seconds = v / 1000 % 60
        var text = sign + (hours > 0 ? "\(hours):" + pad(minutes, 2) : pad(minutes, 2)) + ":" + pad(seconds, 2)
        if milliseconds { text += "." + pad(v % 1000, 3) }
        return text
    }

    /// How a time axis ending at `end` writes its times: `clock` adds hours from an hour on.
    static func clockUnit(_ end: Int) -> String { end >= 3_600_000 ? "time (h:mm:ss)" : "time (mm:ss)" }

    /// `1.8 s`, `850 ms`, `2 s`: exact, trailing zeros dropped.
    static func duration(_ ms: Int) -> String {
        if abs(ms) < 1000 { return "\(ms) ms" }
        var fraction = pad(abs(ms) % 1000, 3)
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return (ms < 0 ? "-" : "") + "\(abs(ms) / 1000)" + (fraction.isEmpty ? "" : "." + fraction) + " s"
    }

    /// `x` rounded half away from zero to `decimals` places, always with that many places.
    static func fixed(_ x: Double, _ decimals: Int) -> String {
        guard x.isFinite else { return "–" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int((abs(x) * scale).rounded())
        let unit = Int(scale)
        let whole = scaled / unit
        let text = decimals == 0 ? "\(whole)" : "\(whole)." + pad(scaled % unit, decimals)
        return (x < 0 && scaled != 0 ? "-" : "") + text
    }

    static func percent(_ ratio: Double) -> String { fixed(ratio * 100, 2) + " %" }

    /// Tenths of a pixel as `12.3`: SVG coordinates from integer arithmetic only.
    static func tenths(_ v: Int) -> String {
        let sign = v < 0 ? "-" : ""
        return sign + "\(abs(v) / 10).\(abs(v) % 10)"
    }

    static func pad(_ v: Int, _ width: Int) -> String {
        let digits = String(v)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// A record value as compact JSON text (strings quoted, doubles as Swift prints them).
    static func json(_ value: JSONValue) -> String { JSONDiffText.render(value) }

    /// MetricalcCore's gauges, in ms; its counters (`Num…`) are 1 for each occurrence.
    static let millisecondMetrics: Set<String> = ["StartTime", "RebufferTime", "PlayTime"]

    /// A metric as the metrics lane labels it: `StartTime 850 ms`, `NumRebuffers 1`.
    static func metric(_ name: String, _ value: JSONValue?) -> String {
        let text = value.map(json) ?? ""
        if millisecondMetrics.contains(name), case .int? = value { return "\(name) \(text) ms" }
        return "\(name) \(text)"
    }

    /// `2.17 Mb/s`.
    static func megabits(_ bps: Int) -> String { fixed(Double(bps) / 1_000_000, 2) + " Mb/s" }

    /// A KPI value for people, in its unit: ratios as percentages, times as durations, bitrates
    /// in Mb/s, heights in px.
    static func kpi(_ name: String, _ value: KPIValue) -> String {
        kpi(name, value.number, isFlag: { if case .bool = value { return true } else { return false } }())
    }

    static func kpi(_ name: String, _ v: Double, isFlag: Bool = false) -> String {
        if isFlag { return v != 0 ? "yes" : "no" }
        switch KPIName.units[name] {
        case "ms": return duration(Int(v.rounded()))
        case "ratio": return percent(v)
        case "1/min": return fixed(v, 3) + " /min"
        case "bit/s": return megabits(Int(v.rounded()))
        case "px": return "\(Int(v.rounded())) px"
        default: return v.rounded() == v && abs(v) < 9e15 ? "\(Int(v))" : fixed(v, 2)
        }
    }
}
