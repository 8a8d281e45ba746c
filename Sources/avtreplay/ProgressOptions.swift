import ArgumentParser
import Foundation

/// Progress for logs, where a redrawn terminal line does not show.
struct ProgressOptions: ParsableArguments {
    @Flag(
        help: ArgumentHelp(
            "Print a progress line on standard error every --progress-every seconds (sessions, steps and their rate, "
                + "bytes read and time left), for logs such as kubectl logs or CI; a terminal shows a live line anyway."
        ))
    var progress = false

    @Option(help: ArgumentHelp("Seconds between --progress lines.", valueName: "seconds"))
    var progressEvery: Double = 5

    func validate() throws {
        guard progressEvery.isFinite, progressEvery >= 0.1 else {
            throw ValidationError("--progress-every expects seconds, 0.1 or more; got \(progressEvery).")
        }
    }

    /// The interval of plain lines, when asked for.
    var every: TimeInterval? { progress ? progressEvery : nil }
}
