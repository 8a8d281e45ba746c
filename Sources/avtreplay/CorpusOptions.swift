import AVTReplay
import ArgumentParser

/// Which sessions of a corpus a command takes, and whether a bad one stops it.
struct CorpusOptions: ParsableArguments {
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

    @Option(
        help: ArgumentHelp(
            "Also take the inputs listed in FILE (- for standard input), one path per line, relative to the current "
                + "directory; each session is named by its path as listed.",
            valueName: "FILE"))
    var filesFrom: String?

    func validate() throws {
        if let shard, Shard(shard) == nil {
            throw ValidationError("--shard expects K/N with 1 ≤ K ≤ N, such as 1/4; got '\(shard)'.")
        }
    }

    /// The shard given, if any.
    var selected: Shard? { shard.flatMap(Shard.init) }

    /// The inputs given as arguments, then those of `--files-from`.
    func inputs(_ given: [String]) throws -> [String] {
        guard let filesFrom else { return given }
        do {
            return given + (try FileList.read(filesFrom))
        } catch {
            throw CommandFailure.badInput(error.description)
        }
    }

    /// Whether every record must name its session: a shard's and a list's records are joined
    /// with others'.
    var namesSessions: Bool { selected != nil || filesFrom != nil }
}
