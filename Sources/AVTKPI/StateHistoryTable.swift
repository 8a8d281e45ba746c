import AVTFormats

/// `kpi --states`: each playback's state history as a table for people (the same entries the
/// JSON `history` holds), then its format switches, under the session's KPI table.
public enum StateHistoryTable {
    /// The tables of every playback whose history `session` kept (`keepSpans`).
    public static func render(_ session: SessionKPIs) -> String {
        var out = ""
        for history in session.histories {
            let id = TerminalText.escaped(String(history.id.prefix(8))) + "…"
            out += "\(TerminalText.escaped(session.session))  playback \(id)  state history\n"
            out += pad("t (ms)", 12) + pad("duration (ms)", 15) + "  state\n"
            for entry in history.entries(end: session.end) {
                out += pad(String(entry.t), 12) + pad(String(entry.durationMs), 15) + "  \(entry.state.name)\n"
            }
            let switches = history.formats ?? []
            if !switches.isEmpty {
                out += pad("t (ms)", 12) + pad("height (px)", 15) + pad("bitrate (bit/s)", 17) + "  format switches\n"
                for format in switches {
                    out += pad(String(format.t), 12) + pad(format.height.map(String.init) ?? "–", 15)
                    out += pad(format.bitrate.map(String.init) ?? "–", 17) + "\n"
                }
            }
            out += "\n"
        }
        return out
    }

    /// Right-aligned in `width` characters.
    private static func pad(_ s: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - s.count)) + s
    }
}
