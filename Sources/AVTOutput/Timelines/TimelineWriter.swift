import AVTCore
import AVTFormats
import AVTJSON
import AVTTimeline
import AVTTrackers

/// Writes a timeline in one of the three formats, a step at a time, so a conversion holds at most
/// one step in memory (CSV keeps its rows in a bounded spool until the columns are known).
///
/// What a writer produces reads back, with the same checks, to steps that replay to the same
/// records: settings are written explicitly (the CSV's as its `#avtreplay` line), values keep
/// their types (`1` vs `1.0`, `"true"` vs `true`), and a step's observations keep their order
/// (JSON and JSONL keep every order; CSV orders `set` keys by column, which changes nothing, and
/// splits a step whose observations are in another order into rows at the same t).
package protocol TimelineWriter: AnyObject {
    /// Writes one step; steps come in timeline order. Throws `OutputError`, or `TimelineError`
    /// for a hand-built step whose tracker index is not one of the settings' trackers.
    func write(_ step: Step) throws
    /// Writes whatever is left (the JSON document's end, the CSV's header and rows). Does not
    /// close the sink.
    func finish() throws(OutputError)
}
