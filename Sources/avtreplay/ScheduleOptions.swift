import AVTReplay
import ArgumentParser

/// Which sessions `run` replays, and how many at once.
struct ScheduleOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Sessions replayed in parallel; output stays in input order.", valueName: "n"))
    var jobs: Int = 1

    @Option(
        help: ArgumentHelp(
            "Replay only sessions K, K+N, K+2N, … (1-based) of the sorted inputs, to split a corpus across machines.",
            valueName: "K/N"))
    var shard: String?

    @Flag(
        help: ArgumentHelp(
            "Report a bad input (file, line, message), leave it out and go on with the others; exit 2 at the end "
                + "with their count."))
    var keepGoing = false

    func validate() throws {
        if jobs < 1 { throw ValidationError("--jobs must be at least 1.") }
        if let shard, Shard(shard) == nil {
            throw ValidationError("--shard expects K/N with 1 ≤ K ≤ N, such as 1/4; got '\(shard)'.")
        }
    }

    /// This shard's share of the sorted sessions.
    func select<T>(_ sessions: [T]) -> [T] { shard.flatMap(Shard.init)?.select(sessions) ?? sessions }
}
