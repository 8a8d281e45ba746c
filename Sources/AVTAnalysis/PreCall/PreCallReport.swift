import AVTJSON
import AVTTrackers

/// `avtreplay precall` output. Both forms are deterministic: bandwidths are integer bps; the JSON
/// loss is the ratio 0…1 in Swift's shortest round-trip form (`0.03`, `0.0`), null when unknown;
/// the text loss is a percentage rounded to two decimals.
package enum PreCallReport {
    /// `{"verdict": …, "windows": [{"t", "videoBandwidth", "videoPacketLoss", "audioBandwidth",
    /// "audioPacketLoss"}]}` on one line.
    package static func json(_ result: PreCallResult) -> String {
        var w = JSONWriter()
        w.raw("{\"verdict\":")
        w.string(result.verdict.rawValue)
        w.raw(",\"windows\":[")
        for (n, window) in result.windows.enumerated() {
            if n > 0 { w.raw(",") }
            w.raw("{\"t\":")
            w.int(window.t)
            w.raw(",\"videoBandwidth\":")
            w.int(window.video.bandwidth)
            w.raw(",\"videoPacketLoss\":")
            loss(window.video.loss, into: &w)
            w.raw(",\"audioBandwidth\":")
            w.int(window.audio.bandwidth)
            w.raw(",\"audioPacketLoss\":")
            loss(window.audio.loss, into: &w)
            w.raw("}")
        }
        w.raw("]}\n")
        return String(decoding: w.bytes, as: UTF8.self)
    }

    private static func loss(_ loss: PacketLoss?, into w: inout JSONWriter) {
        if let loss { w.double(loss.ratio) } else { w.null() }
    }

    /// The verdict, the checks that made it and the windows, for people.
    package static func text(_ result: PreCallResult, criteria: PreCallCriteria, profile: PreCallProfile) -> String {
        var out =
            "verdict: \(result.verdict.rawValue) (profile \(profile.rawValue), decided at t=\(result.decidedAt) ms)\n"
        out +=
            "video: " + line(result.video, kbps: criteria.videoKbps, lossPercent: criteria.videoLossPercent, criteria)
            + "\n"
        out +=
            "audio: " + line(result.audio, kbps: criteria.audioKbps, lossPercent: criteria.audioLossPercent, criteria)
            + "\n"
        if let retest = result.retest {
            out +=
                "audio-only retest at t=\(result.decidedAt) ms: "
                + line(retest, kbps: criteria.audioKbps, lossPercent: criteria.audioLossPercent, criteria) + "\n"
        }
        for t in result.restarts {
            out += "counters went backwards at t=\(t) ms: windows restarted from that sample\n"
        }
        out += "windows (each closes >= \(criteria.windowLength) ms after the previous one):\n"
        let headers = ["t", "video bps", "video loss", "audio bps", "audio loss"]
        var rows = [headers]
        for window in result.windows {
            rows.append([
                String(window.t), String(window.video.bandwidth), percent(window.video.loss),
                String(window.audio.bandwidth), percent(window.audio.loss),
            ])
        }
        if result.windows.isEmpty { rows.append(["none", "", "", "", ""]) }
        let widths = headers.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            let cells = row.indices.map { pad(row[$0], widths[$0]) }
            out += "  " + cells.joined(separator: "  ") + "\n"
        }
        return out
    }

    /// `pass  400000 bps >= 50000, loss 0.50 % <= 3 %`.
    private static func line(_ check: MediaCheck, kbps: Double, lossPercent: Double, _ criteria: PreCallCriteria)
        -> String
    {
        var text = check.passes ? "pass" : "fail"
        text += "  \(check.bandwidth) bps \(check.bandwidthPasses ? ">=" : "<") \(number(kbps * 1000))"
        if let loss = check.loss {
            text += ", loss \(percent(loss)) \(check.lossPasses ? "<=" : ">") \(number(lossPercent)) %"
        } else {
            text += ", loss unknown (\(criteria.unknownLossPasses ? "passes" : "fails"))"
        }
        return text
    }

    /// A loss as a percentage with two decimals (`0.50 %`), `unknown` when there is none.
    static func percent(_ loss: PacketLoss?) -> String {
        guard let loss else { return "unknown" }
        let hundredths = Int((Double(loss.lost) * 10_000 / Double(loss.total)).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) %"
    }

    /// A threshold without a useless `.0`.
    static func number(_ x: Double) -> String {
        if x == x.rounded(), let whole = truncatedInt(x) { return String(whole) }
        return String(x)
    }

    private static func pad(_ s: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - s.count)) + s
    }
}
