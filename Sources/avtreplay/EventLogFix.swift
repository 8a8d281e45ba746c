/// What each command says to do with an event log (records as `run` writes them) given where it
/// reads a timeline; the library names the mistake, the command knows its fix.
enum EventLogFix {
    static let run =
        "`run` replays timelines: give it the timeline the records came from (kpi and report read records with --from-events)"
    static let convert = "`convert` converts timelines: give it the timeline the records came from"
    static let precall = "`precall` reads timelines: give it the timeline the records came from"
    static let kpi = "kpi reads records with --from-events"
    static let report = "report reads records by itself without --input-format, or with --from-events"
}
