import AVTReplay
import AVTTimeline

/// The fixes `check` names for its commonest mistakes: a golden file not written yet, and an
/// event log where the timeline goes (the arguments swapped, or an output given as the input).
package enum GoldenAdvice {
    /// Nil when the golden file is there; else how to write it, or where else it may be.
    static func missing(_ expected: String, for timeline: String) -> TimelineError? {
        guard expected != "-", !SessionDiscovery.exists(expected) else { return nil }
        let message: String
        if expected == GoldenFiles.expectedPath(for: timeline) {
            message =
                "no golden file: write it with `avtreplay check \(timeline) --update`, or give one with --expect"
        } else {
            message = "no expected output: write it with `avtreplay check \(timeline) --expect \(expected) --update`"
        }
        return TimelineError(file: expected, message: message)
    }

    /// What `check` says of a case that failed with `error`.
    static func message(_ error: any Error, timeline: String, expected: String) -> String {
        guard let error = error as? TimelineError, error.reason == .eventLog else { return GoldenFiles.message(error) }
        if isTimeline(expected) {
            return "\(timeline) is an event log (records as `avtreplay run` writes them) and \(expected) a timeline: "
                + "the arguments look swapped; `avtreplay check \(expected) --expect \(timeline)`"
        }
        return error.fixing(
            eventLog: "check replays a timeline: give the one the records came from, with this file as --expect "
                + "(`avtreplay check TIMELINE --expect \(timeline)`)"
        ).description
    }

    /// Whether a file reads as a timeline rather than as records (or nothing at all).
    private static func isTimeline(_ path: String) -> Bool {
        guard path != "-", SessionDiscovery.exists(path), let input = try? ByteInput(path: path),
            let head = try? input.peek(1 << 16)
        else { return false }
        return !EventLogSniffer.isEventLog(head)
            && (try? TimelineReader.open(path, format: nil, csvTrackers: [], warn: { _ in })) != nil
    }
}
