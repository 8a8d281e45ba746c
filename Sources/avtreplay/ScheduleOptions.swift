import AVTReplay
import ArgumentParser

/// Which sessions `run` replays, how many at once, and how fast.
struct ScheduleOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Replay in wall-clock time: 1 = real time, 10 = ten times faster (default: as fast as possible, no waiting).",
        valueName: "x"))
    var speed: Double?

    @Option(help: ArgumentHelp("Sessions replayed in parallel; output stays in input order.", valueName: "n"))
    var jobs: Int = 1

    @Option(help: ArgumentHelp(
        "Replay only sessions K, K+N, K+2N, … (1-based) of the sorted inputs, to split a corpus across machines.",
        valueName: "K/N"))
    var shard: String?

    func validate() throws {
        if jobs < 1 { throw ValidationError("--jobs must be at least 1.") }
        if let speed, !(speed > 0 && speed.isFinite) { throw ValidationError("--speed must be a number greater than 0, such as 1 or 10.") }
        if let shard, Shard(shard) == nil {
            throw ValidationError("--shard expects K/N with 1 ≤ K ≤ N, such as 1/4; got '\(shard)'.")
        }
    }

    /// This shard's share of the sorted sessions.
    func select(_ sessions: [String]) -> [String] { shard.flatMap(Shard.init)?.select(sessions) ?? sessions }
}
