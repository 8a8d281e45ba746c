/// A cell of a session's KPI table (`kpi` without `--format`): its value right-aligned in a
/// column, after a blank unless it is the first column. The text is `KPIReport.pad` of
/// `KPIReport.text`, or `–` for a missing value, byte for byte; whole numbers (most cells) are
/// written as digits straight into the line, with no String per cell.
enum KPITableCell {
    /// Appends the cell for `value` to `line`, `width` columns wide (a wider value is not cut).
    static func append(_ value: KPIValue?, width: Int, separated: Bool, to line: inout [UInt8]) {
        if separated { line.append(UInt8(ascii: " ")) }
        switch value {
        case .int(let v)?:
            appendInt(v, width: width, to: &line)
        case nil:
            blanks(width - 1, to: &line)
            line.append(contentsOf: "–".utf8)
        case let value?:
            line.append(contentsOf: KPIReport.pad(KPIReport.text(value), width, right: true).utf8)
        }
    }

    /// The digits of `v` (a `-` before them when negative), after the blanks that fill `width`.
    private static func appendInt(_ v: Int, width: Int, to line: inout [UInt8]) {
        var digits = 1
        var rest = v.magnitude
        while rest >= 10 {
            rest /= 10
            digits += 1
        }
        blanks(width - digits - (v < 0 ? 1 : 0), to: &line)
        if v < 0 { line.append(UInt8(ascii: "-")) }
        // Least significant first, then turned around in place.
        let start = line.count
        var magnitude = v.magnitude
        repeat {
            line.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        line[start...].reverse()
    }

    private static func blanks(_ count: Int, to line: inout [UInt8]) {
        guard count > 0 else { return }
        if count <= spaces.count {
            line.append(contentsOf: spaces[..<count])
        } else {
            line.append(contentsOf: [UInt8](repeating: UInt8(ascii: " "), count: count))
        }
    }

    /// The blanks of a cell's fill, made once: a cell is 14 columns.
    private static let spaces = [UInt8](repeating: UInt8(ascii: " "), count: 32)
}
