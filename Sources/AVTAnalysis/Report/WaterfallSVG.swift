/// Draws a waterfall: a row per request in the given order, a bar from start to end, a
/// duration beside it and an axis in ms from the earliest start.
package enum WaterfallSVG {
    static let labelWidth = 260
    static let plotWidth = 760
    static let rowHeight = 20
    static let palette = 6
    static let width = labelWidth + plotWidth + 90

    static func render(_ requests: [WaterfallRequest], id: String) -> String {
        guard let origin = requests.map(\.start).min(), let last = requests.map(\.end).max() else { return "" }
        let span = max(1, last - origin)
        var categories: [String] = []
        for r in requests where !categories.contains(r.category) { categories.append(r.category) }
        let height = 24 + requests.count * rowHeight + 4
        func x10(_ t: Int) -> Int { labelWidth * 10 + (t - origin) * plotWidth * 10 / span }
        var svg =
            "<svg class=\"wf\" id=\"\(id)\" viewBox=\"0 0 \(width) \(height)\" role=\"img\" aria-labelledby=\"\(id)-t\">"
        svg +=
            "<title id=\"\(id)-t\">Startup waterfall: \(requests.count) requests over \(ReportText.duration(span))</title>"
        // Axis: 5 equal divisions, labelled in ms from the first request.
        for step in 0...5 {
            let t = origin + span * step / 5
            let x = ReportText.tenths(x10(t))
            svg += "<line class=\"grid\" x1=\"\(x)\" x2=\"\(x)\" y1=\"18\" y2=\"\(height - 4)\"/>"
            svg += "<text class=\"axis-label\" x=\"\(x)\" y=\"12\">\(ReportText.duration(t - origin))</text>"
        }
        for (row, r) in requests.enumerated() {
            let y = 24 + row * rowHeight
            let category = categories.firstIndex(of: r.category)! % palette
            let text =
                "\(r.label) (\(r.category)): \(ReportText.duration(r.start - origin)) to \(ReportText.duration(r.end - origin)), \(ReportText.duration(r.end - r.start))"
            svg += "<text class=\"wf-label\" x=\"\(labelWidth - 8)\" y=\"\(y + 13)\">\(ReportText.html(r.label))</text>"
            let w = max(10, x10(r.end) - x10(r.start))
            svg +=
                "<rect class=\"wf-bar c\(category)\" x=\"\(ReportText.tenths(x10(r.start)))\" y=\"\(y + 3)\" width=\"\(ReportText.tenths(w))\" height=\"\(rowHeight - 6)\" data-t=\"\(r.start)\" data-e=\"\(r.end)\" data-category=\"\(ReportText.html(r.category))\" tabindex=\"0\" aria-label=\"\(ReportText.html(text))\"><title>\(ReportText.html(text))</title></rect>"
            svg +=
                "<text class=\"wf-dur\" x=\"\(ReportText.tenths(x10(r.start) + w + 40))\" y=\"\(y + 13)\">\(ReportText.duration(r.end - r.start))</text>"
        }
        svg += "</svg>"
        var legend = "<ul class=\"legend\">"
        for (n, category) in categories.enumerated() {
            legend += "<li><span class=\"sw wf-bar c\(n % palette)\"></span>\(ReportText.html(category))</li>"
        }
        return svg + legend + "</ul>"
    }
}
