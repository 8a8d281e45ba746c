import AVTReplay
import ArgumentParser

/// Which sessions `run` replays, and how many at once.
struct ScheduleOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Sessions replayed in parallel; output stays in input order.", valueName: "n"))
    var jobs: Int = 1

    @Option(
        help: ArgumentHelp(
            "Take only the sessions whose name (the path relative to the folder given) hashes to K of N, to split "
                + "a corpus across machines; K is 1-based (a 0-based index i is --shard $((i + 1))/N).",
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
}
