import Synchronization

/// Set once by the command's SIGINT/SIGTERM handler: every `ByteInput` read after it ends with
/// an "interrupted" error. A replay that waits for input (a FIFO with no writer yet, a terminal)
/// or reads on without finding a step (a device of noise read as a player log) never reaches the
/// step loop that watches for a stop, so the input itself must hear it.
package enum InputCancellation {
    private static let flag = Atomic<Bool>(false)

    package static func request() { flag.store(true, ordering: .relaxed) }

    package static var isRequested: Bool { flag.load(ordering: .relaxed) }

    /// The error a read ends with once cancelled.
    package static func error(reading name: String) -> TimelineError {
        TimelineError(file: name, message: "interrupted while reading (SIGINT or SIGTERM)")
    }
}
