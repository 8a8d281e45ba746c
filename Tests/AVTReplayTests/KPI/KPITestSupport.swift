import AVTCore
import XCTest

@testable import AVTAnalysis
@testable import AVTKPI
@testable import AVTOutput
@testable import AVTReplay
@testable import AVTTimeline

/// Replays a timeline as `kpi` does (the history follows the trackers before the hub) and reads
/// its KPIs by name.
enum KPITestSupport {
    static func session(_ steps: String, trackers: String = #"[{"name": "c"}]"#, settings: String = "") throws
        -> SessionKPIs
    {
        let text = "{\(settings)\"trackers\": \(trackers), \"steps\": [\(steps)]}"
        let timeline = try TimelineDecoder.decode(Array(text.utf8), file: "t.json")
        var source = DocumentSource(timeline, name: "t.json")
        return try KPISessions.replay(&source, session: "t.json").0
    }

    static func values(_ session: SessionKPIs, _ n: Int = 0, _ definitions: KPIDefinitions = .openavt)
        -> [String: KPIValue]
    {
        Dictionary(
            session.playback(session.playbackIds[n], definitions: definitions).map { ($0.name, $0.value) },
            uniquingKeysWith: { a, _ in a })
    }

    static func totals(_ session: SessionKPIs, _ definitions: KPIDefinitions = .openavt) -> [String: KPIValue] {
        Dictionary(
            session.totals(definitions: definitions).map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a })
    }

    static func step(_ t: Int, _ action: String, _ tracker: String = "c") -> String {
        #"{"t": \#(t), "tracker": "\#(tracker)", "action": "\#(action)"}"#
    }

    /// An observe step of tracker `p`: `observe` is the JSON object's members.
    static func observe(_ t: Int, _ observe: String, _ tracker: String = "p") -> String {
        #"{"t": \#(t), "tracker": "\#(tracker)", "observe": {\#(observe)}}"#
    }
}
