/// The played format over time: bitrate (Mb/s) and resolution height (px) as step lines, each on
/// its own scale, from the state history's format changes. Same time axis as the timeline.
package enum FormatPlotSVG {
    static let height = 120

    /// nil when no playback reported a format.
    static func render(_ histories: [PlaybackHistory], end: Int, id: String) -> String? {
        var points: [(t: Int, height: Int?, bitrate: Int?)] = []
        for history in histories { points += history.formats ?? [] }
        points.sort { $0.t < $1.t }
        let maxBitrate = points.compactMap(\.bitrate).max() ?? 0
        let maxHeight = points.compactMap(\.height).max() ?? 0
        guard maxBitrate > 0 || maxHeight > 0 else { return nil }
        let layout = TimelineLayout(end: max(1, end), laneCount: 0, hasMetrics: false)
        let top = 10
        let bottom = height - 20
        var s = "<svg class=\"formats\" id=\"\(id)-formats\" viewBox=\"0 0 \(TimelineLayout.width) \(height)\" "
        s += "role=\"img\" aria-labelledby=\"\(id)-formats-t\"><title id=\"\(id)-formats-t\">Bitrate up to "
        s += "\(ReportText.megabits(maxBitrate)) and resolution up to \(maxHeight) px over time</title>"
        s +=
            "<line class=\"grid\" x1=\"\(TimelineLayout.gutter)\" x2=\"\(TimelineLayout.gutter + TimelineLayout.plotWidth)\" "
        s += "y1=\"\(bottom)\" y2=\"\(bottom)\"/>"
        for (name, maxValue, value, cls) in [
            ("bitrate", maxBitrate, { (p: (t: Int, height: Int?, bitrate: Int?)) in p.bitrate }, "fl-bitrate"),
            ("height", maxHeight, { (p: (t: Int, height: Int?, bitrate: Int?)) in p.height }, "fl-height"),
        ] where maxValue > 0 {
            var path = ""
            var last: Int?
            for point in points {
                let x = ReportText.tenths(layout.x10(point.t))
                // In floating point: a bitrate may be as large as an Int holds.
                let v = value(point).map {
                    bottom - Int((Double(bottom - top) * Double($0) / Double(maxValue)).rounded())
                }
                if let previous = last { path += " L\(x) \(previous)" }
                if let v { path += (path.isEmpty ? "M" : " L") + "\(x) \(v)" }
                last = v
            }
            if let previous = last { path += " L\(ReportText.tenths(layout.x10(end))) \(previous)" }
            s += "<path class=\"fl \(cls)\" d=\"\(path)\" data-series=\"\(name)\"/>"
        }
        s += "<text class=\"fl-label fl-bitrate-label\" x=\"8\" y=\"\(top + 8)\">"
        s += maxBitrate > 0 ? "bitrate ≤ \(ReportText.megabits(maxBitrate))" : ""
        s += "</text><text class=\"fl-label fl-height-label\" x=\"8\" y=\"\(top + 26)\">"
        s += maxHeight > 0 ? "height ≤ \(maxHeight) px" : ""
        s += "</text></svg>"
        return s
    }
}
