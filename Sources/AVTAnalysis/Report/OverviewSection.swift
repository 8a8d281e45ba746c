import AVTKPI
import AVTOutput

/// The first page of a report on many sessions (the corpus view): how startup time, rebuffer
/// ratio and play time are distributed over every playback (histograms with their numbers as a
/// table), the worst sessions and every session, each linked to its timeline.
package enum OverviewSection {
    /// A session's headline numbers, from its KPI totals.
    struct Row {
        var index: Int
        var name: String
        var startup: Int?
        /// No startup only because no playback's start was recorded (each one without a startup
        /// carries a `midSession` mark): unknown, not never started.
        var startNotRecorded = false
        var rebufferRatio: Double?
        var failed: Int
        var exits: Int
        var errors: Int
        var playTime: Int

        /// How far the session is from a good playback: the worse of its startup over
        /// `startupTarget` and its rebuffer ratio over `rebufferTarget` (each a multiple of the
        /// target, so a 29 s startup, 14.5, is worse than a 5 % rebuffer ratio, 5). A value not
        /// measured (no start recorded, no play time) does not count; nil when neither is.
        var severity: Double? {
            let parts = [
                startup.map { Double($0) / Double(OverviewSection.startupTarget) },
                rebufferRatio.map { $0 / OverviewSection.rebufferTarget },
            ].compactMap { $0 }
            return parts.max()
        }
    }

    /// Common targets for a good playback: a startup within 2 s, a rebuffer ratio within 1 %.
    static let startupTarget = 2000
    static let rebufferTarget = 0.01

    static func rows(_ sessions: [ReportSession], definitions: KPIDefinitions) -> [Row] {
        sessions.enumerated().map { index, session in
            let totals = Dictionary(
                session.kpis.totals(definitions: definitions).map { ($0.name, $0.value) },
                uniquingKeysWith: { a, _ in a })
            func int(_ name: String) -> Int {
                if case .int(let v)? = totals[name] { return v }
                return 0
            }
            var ratio: Double?
            if case .double(let r)? = totals["rebufferRatio"] { ratio = r }
            var startup: Int?
            if case .int(let v)? = totals["startupTime"] { startup = v }
            let withoutStartup = session.kpis.playbackIds.filter {
                session.kpis.playback($0, definitions: definitions)[name: "startupTime"] == nil
            }
            return Row(
                index: index, name: session.name, startup: startup,
                startNotRecorded: startup == nil && !withoutStartup.isEmpty
                    && withoutStartup.allSatisfy(session.kpis.startNotRecorded),
                rebufferRatio: ratio, failed: int("playbackFailed"), exits: int("exitBeforeVideoStart"),
                errors: int("errorCount"), playTime: int("playTime"))
        }
    }

    /// Worst first: more failed playbacks, then more exits before start (a playback that never
    /// started), then the higher severity (startup and rebuffer ratio against their targets), then
    /// by name so ties are stable. A session without a severity (no startup and no play time
    /// measured) ranks after every session with one: nothing was measured, so it is not worse
    /// than a clean playback; failed playbacks and exits still rank first as they come before.
    static func worst(_ rows: [Row]) -> [Row] {
        rows.sorted { a, b in
            if a.failed != b.failed { return a.failed > b.failed }
            if a.exits != b.exits { return a.exits > b.exits }
            switch (a.severity, b.severity) {
            case (let sa?, let sb?) where sa != sb: return sa > sb
            case (.some, nil): return true
            case (nil, .some): return false
            default: break
            }
            return a.name.utf8.lexicographicallyPrecedes(b.name.utf8) || (a.name == b.name && a.index < b.index)
        }
    }

    static func render(_ sessions: [ReportSession], definitions: KPIDefinitions, worstCount: Int) -> String {
        let rows = rows(sessions, definitions: definitions)
        var s =
            "<section id=\"overview\" aria-labelledby=\"overview-h\"><h2 id=\"overview-h\">Overview: \(sessions.count) session"
        s += sessions.count == 1 ? "" : "s"
        s += "</h2><div class=\"hists\">"
        // The corpus: every playback of every session, one sample each.
        var startups: [Int] = []
        var ratios: [Int] = []
        var playTimes: [Int] = []
        var playbacks = 0
        var notRecorded = 0
        for session in sessions {
            for id in session.kpis.playbackIds {
                let values = session.kpis.playback(id, definitions: definitions)
                playbacks += 1
                if case .int(let v)? = values[name: "startupTime"] {
                    startups.append(v)
                } else if session.kpis.startNotRecorded(id) {
                    notRecorded += 1
                }
                // Ratios in basis points (1/100 of a percent), so bins are exact integers.
                if case .double(let r)? = values[name: "rebufferRatio"] { ratios.append(Int((r * 10_000).rounded())) }
                if case .int(let v)? = values[name: "playTime"] { playTimes.append(v) }
            }
        }
        s += histogram(
            id: "hist-startup", title: "Startup time", values: startups, steps: startupSteps,
            missing: [
                (playbacks - startups.count - notRecorded, "never started"), (notRecorded, "start not recorded"),
            ], label: { ReportText.duration($0) })
        s += histogram(
            id: "hist-rebuffer", title: "Rebuffer ratio", values: ratios, steps: ratioSteps,
            missing: [(playbacks - ratios.count, "no play time")],
            label: { ReportText.fixed(Double($0) / 100, 2) + " %" })
        s += histogram(
            id: "hist-play", title: "Play time", values: playTimes, steps: playSteps,
            missing: [(playbacks - playTimes.count, "none")], label: { ReportText.duration($0) })
        s += "</div><h3>Worst sessions</h3><p class=\"help\">Ordered by failed playbacks, then exits before start, "
        s += "then the worse of startup time ÷ 2 s and rebuffer ratio ÷ 1 % (a 29 s startup counts 14.5, a 5 % "
        s += "rebuffer ratio 5; a value not measured does not count, and sessions with neither come last).</p>"
        s += table(Array(worst(rows).prefix(worstCount)), ranked: true, id: "worst")
        s +=
            "<details class=\"all-sessions\"><summary>All \(rows.count) sessions</summary>"
            + table(rows, ranked: false, id: "all")
        return s + "</details></section>"
    }

    private static func table(_ rows: [Row], ranked: Bool, id: String) -> String {
        var s = "<div class=\"scroll\"><table class=\"sessions\" id=\"\(id)-sessions\"><thead><tr>"
        s += ranked ? "<th scope=\"col\">#</th>" : ""
        s +=
            "<th scope=\"col\" class=\"name\">session</th><th scope=\"col\">startup</th><th scope=\"col\">rebuffer ratio</th>"
        s +=
            "<th scope=\"col\">failed</th><th scope=\"col\">exits before start</th><th scope=\"col\">errors</th><th scope=\"col\">play time</th></tr></thead><tbody>"
        for (rank, row) in rows.enumerated() {
            s += "<tr>" + (ranked ? "<td>\(rank + 1)</td>" : "")
            s += "<td class=\"name\"><a href=\"#s\(row.index + 1)\">\(ReportText.html(row.name))</a></td>"
            s +=
                "<td>" + (row.startup.map(ReportText.duration) ?? (row.startNotRecorded ? "not recorded" : "–"))
                + "</td>"
            s += "<td>" + (row.rebufferRatio.map(ReportText.percent) ?? "–") + "</td>"
            s +=
                "<td>\(row.failed)</td><td>\(row.exits)</td><td>\(row.errors)</td><td>\(ReportText.duration(row.playTime))</td></tr>"
        }
        return s + "</tbody></table></div>"
    }

    static let startupSteps = [
        50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10_000, 20_000, 30_000, 60_000, 120_000, 300_000,
    ]
    static let ratioSteps = [10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000]
    static let playSteps = [
        1000, 2000, 5000, 10_000, 30_000, 60_000, 120_000, 300_000, 600_000, 1_800_000, 3_600_000, 7_200_000,
    ]

    /// Bins of the smallest width from `steps` that needs at most 12 bins from 0; a bar per bin
    /// with its count, and the same numbers as a table for screen readers and copying. `missing`
    /// counts the playbacks without a value, by reason, in the caption.
    static func histogram(
        id: String, title: String, values: [Int], steps: [Int], missing: [(count: Int, text: String)],
        label: (Int) -> String
    ) -> String {
        let top = values.max() ?? 0
        let step = steps.first { top / $0 < 12 } ?? max(1, top / 11)
        let binCount = values.isEmpty ? 0 : top / step + 1
        var counts = [Int](repeating: 0, count: binCount)
        for v in values { counts[max(0, v) / step] += 1 }
        let most = counts.max() ?? 0
        let width = 480
        let height = 170
        let base = 140
        let left = 30
        let barWidth = binCount == 0 ? 0 : (width - left - 10) * 10 / binCount
        var s = "<figure class=\"hist\" id=\"\(id)\"><figcaption>\(title): \(values.count) playback"
        s += values.count == 1 ? "" : "s"
        for (count, text) in missing where count > 0 { s += ", \(count) \(text)" }
        s +=
            "</figcaption><svg viewBox=\"0 0 \(width) \(height)\" role=\"img\" aria-labelledby=\"\(id)-t\"><title id=\"\(id)-t\">\(title) histogram, "
        s += counts.enumerated().map { "\(label($0.offset * step))–\(label(($0.offset + 1) * step)): \($0.element)" }
            .joined(separator: "; ")
        s += "</title><line class=\"grid\" x1=\"\(left)\" x2=\"\(width - 10)\" y1=\"\(base)\" y2=\"\(base)\"/>"
        s += "<text class=\"axis-label\" x=\"\(left - 4)\" y=\"\(base - 110)\" text-anchor=\"end\">\(most)</text>"
        for (bin, count) in counts.enumerated() {
            let h = most == 0 ? 0 : count * 110 / most
            let x = left * 10 + bin * barWidth
            let text = "\(label(bin * step))–\(label((bin + 1) * step)): \(count) playback" + (count == 1 ? "" : "s")
            s +=
                "<rect class=\"hbar\" x=\"\(ReportText.tenths(x + 10))\" y=\"\(base - h)\" width=\"\(ReportText.tenths(max(10, barWidth - 20)))\" "
            s += "height=\"\(h)\" data-count=\"\(count)\"><title>\(text)</title></rect>"
            if count > 0 {
                s +=
                    "<text class=\"hcount\" x=\"\(ReportText.tenths(x + barWidth / 2))\" y=\"\(base - h - 3)\">\(count)</text>"
            }
            // At most 5 labels, so "10.00 %" and its neighbours never overlap.
            if bin % max(1, (binCount + 4) / 5) == 0 {
                s +=
                    "<text class=\"axis-label\" x=\"\(ReportText.tenths(x))\" y=\"\(base + 14)\">\(label(bin * step))</text>"
            }
        }
        s +=
            "</svg><details><summary>\(title) as a table</summary><table><thead><tr><th scope=\"col\">bin</th><th scope=\"col\">playbacks</th></tr></thead><tbody>"
        for (bin, count) in counts.enumerated() {
            s += "<tr><td>\(label(bin * step)) to \(label((bin + 1) * step))</td><td>\(count)</td></tr>"
        }
        return s + "</tbody></table></details></figure>"
    }
}
