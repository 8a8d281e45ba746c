import AVTKPI
import AVTOutput

/// The played format over time, from the state history's format changes: a panel for the
/// bitrate (Mb/s) and one for the resolution height (px), each with its axis and values, over a
/// time axis like the timeline's. What no playback reported is left out: no panel, no label.
package enum FormatPlotSVG {
    /// The height of one panel's plot area.
    static let panelHeight = 80
    static let panelGap = 26
    /// Steps a line's title spells out.
    static let maxSteps = 20
    /// The bitrate axis' steps in bit/s: the smallest that needs at most 4 intervals.
    static let bitrateSteps = [
        100_000, 200_000, 250_000, 500_000, 1_000_000, 2_000_000, 2_500_000, 5_000_000, 10_000_000, 20_000_000,
        25_000_000, 50_000_000, 100_000_000,
    ]

    typealias Point = (t: Int, height: Int?, bitrate: Int?)

    struct Series {
        var name: String
        var title: String
        var value: (Point) -> Int?
        /// The highest value played, the axis' top and its labelled values.
        var peak: Int
        var top: Int
        var ticks: [Int]
        var label: (Int) -> String
    }

    /// nil when no playback reported a format.
    static func render(_ histories: [PlaybackHistory], end: Int, id: String) -> String? {
        var points: [Point] = []
        for history in histories { points += history.formats ?? [] }
        points.sort { $0.t < $1.t }
        var series: [Series] = []
        if let maxBitrate = points.compactMap(\.bitrate).max(), maxBitrate > 0 {
            let step =
                bitrateSteps.first { ($0 * 4) >= maxBitrate } ?? max(1, (maxBitrate + 3) / 4)
            let top = (maxBitrate + step - 1) / step * step
            let decimals = step % 1_000_000 == 0 ? 0 : step % 100_000 == 0 ? 1 : 2
            series.append(
                Series(
                    name: "bitrate", title: "bitrate (Mb/s)", value: { $0.bitrate }, peak: maxBitrate, top: top,
                    ticks: Array(stride(from: 0, through: top, by: step)),
                    label: { ReportText.fixed(Double($0) / 1_000_000, decimals) }))
        }
        if let maxHeight = points.compactMap(\.height).max(), maxHeight > 0 {
            // The heights played are the values a reader wants: 360, 540, 720 px.
            let heights = Set(points.compactMap(\.height)).sorted()
            series.append(
                Series(
                    name: "height", title: "resolution (px)", value: { $0.height }, peak: maxHeight, top: maxHeight,
                    ticks: [0] + heights, label: { "\($0)" }))
        }
        guard !series.isEmpty else { return nil }
        let layout = TimelineLayout(end: max(1, end), laneCount: 0, hasMetrics: false)
        let left = TimelineLayout.gutter
        let right = left + TimelineLayout.plotWidth
        let axisY = 8 + series.count * (panelHeight + panelGap)
        let height = axisY + 22
        var s = "<svg class=\"formats\" id=\"\(id)-formats\" viewBox=\"0 0 \(TimelineLayout.width) \(height)\" "
        s += "role=\"img\" aria-labelledby=\"\(id)-formats-t\"><title id=\"\(id)-formats-t\">"
        s += series.map {
            "\($0.title) up to \(ReportText.fixed(Double($0.peak) / ($0.name == "bitrate" ? 1e6 : 1), $0.name == "bitrate" ? 2 : 0))"
        }.joined(separator: ", ")
        s += " over time</title>"
        for (n, line) in series.enumerated() {
            let top = 16 + n * (panelHeight + panelGap)
            let bottom = top + panelHeight
            func y(_ v: Int) -> Int {
                // In floating point: a bitrate may be as large as an Int holds.
                bottom - Int((Double(panelHeight) * Double(v) / Double(max(1, line.top))).rounded())
            }
            s += "<g class=\"fl-panel\" data-series=\"\(line.name)\">"
            s += "<text class=\"fl-title fl-\(line.name)-label\" x=\"8\" y=\"\(top + 4)\">\(line.title)</text>"
            // Value labels at least 12 px apart, from the bottom up.
            var lastLabel = Int.max
            for value in line.ticks {
                let yv = y(value)
                s += "<line class=\"grid\" x1=\"\(left)\" x2=\"\(right)\" y1=\"\(yv)\" y2=\"\(yv)\"/>"
                if lastLabel - yv >= 12 {
                    s += "<text class=\"fl-value\" x=\"\(left - 6)\" y=\"\(yv + 4)\">\(line.label(value))</text>"
                    lastLabel = yv
                }
            }
            var path = StepPath()
            var last: Int?
            var steps: [String] = []
            var stepStart: (t: Int, v: Int)?
            for point in points {
                let x = layout.x10(point.t)
                let v = line.value(point)
                if v == last, v != nil { continue }
                if let previous = last { path.line(x, y(previous)) }
                if let v {
                    if last == nil { path.move(x, y(v)) } else { path.line(x, y(v)) }
                }
                if let open = stepStart {
                    steps.append(
                        "\(line.label(open.v)) from \(ReportText.clock(open.t)) to \(ReportText.clock(point.t))")
                }
                stepStart = v.map { (point.t, $0) }
                last = v
            }
            if let previous = last { path.line(layout.x10(end), y(previous)) }
            if let open = stepStart {
                steps.append("\(line.label(open.v)) from \(ReportText.clock(open.t)) to \(ReportText.clock(end))")
            }
            // The first changes in words; a session with thousands keeps its page small.
            var said = steps.prefix(maxSteps).joined(separator: "; ")
            if steps.count > maxSteps { said += "; and \(steps.count - maxSteps) more changes" }
            s += "<path class=\"fl fl-\(line.name)\" d=\"\(path.d)\" data-series=\"\(line.name)\"><title>"
            s += "\(line.title): " + said + "</title></path></g>"
        }
        // The time axis, as the timeline's at its default zoom.
        s += "<text class=\"axis-unit\" x=\"8\" y=\"\(axisY + 14)\">\(ReportText.clockUnit(end))</text>"
        var t = 0
        while t <= end {
            let x = layout.x(t)
            s += "<line class=\"grid\" x1=\"\(x)\" x2=\"\(x)\" y1=\"\(axisY - 4)\" y2=\"\(axisY)\"/>"
            s +=
                "<text class=\"axis-label\" x=\"\(x)\" y=\"\(axisY + 14)\">\(ReportText.clock(t, milliseconds: layout.axisStep % 1000 != 0))</text>"
            t += layout.axisStep
        }
        return s + "</svg>"
    }
}

extension FormatPlotSVG {
    /// A step line's path that keeps, at each x, only where the line arrives, its lowest and
    /// highest point and where it leaves: the same picture at a bounded size, so a session whose
    /// bitrate changes 100,000 times does not write 100,000 segments. x in tenths of a pixel.
    struct StepPath {
        private(set) var text = ""
        private var x: Int?
        /// The points at `x` in order, and whether the first of them starts a new subpath.
        private var ys: [Int] = []
        private var moves = false

        var d: String {
            var copy = self
            copy.flush()
            return copy.text
        }

        mutating func move(_ x: Int, _ y: Int) {
            flush()
            self.x = x
            ys = [y]
            moves = true
        }

        mutating func line(_ x: Int, _ y: Int) {
            if x != self.x {
                flush()
                self.x = x
                moves = false
            }
            ys.append(y)
        }

        private mutating func flush() {
            guard let x, !ys.isEmpty else { return }
            var kept = [ys[0]]
            if ys.count > 2 { kept += [ys.min()!, ys.max()!] }
            kept.append(ys[ys.count - 1])
            var previous: Int?
            for (n, y) in kept.enumerated() where y != previous {
                let command = n == 0 && moves ? "M" : "L"
                text += (text.isEmpty ? "" : " ") + command + "\(ReportText.tenths(x)) \(y)"
                previous = y
            }
            ys = []
        }
    }
}
