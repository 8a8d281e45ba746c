/// How a command ends, as the process's exit code: the numbers scripts and CI rely on.
package enum ExitStatus: Sendable, Equatable {
    case ok
    /// Outputs differ, or a verdict is worse than required.
    case differs
    /// Something could not be written (the output, a report).
    case failure
    /// The input (file, flags, destination) is malformed.
    case badInput
    /// Replayed, but some records could not be delivered.
    case notDelivered
    /// A signal stopped the replay and everything replayed until then was delivered.
    case interrupted(signal: Int32)

    package var code: Int32 {
        switch self {
        case .ok: 0
        case .differs, .failure: 1
        case .badInput: 2
        case .notDelivered: 3
        // The shell's convention for a process ended by a signal: 128 + its number (130, 143).
        case .interrupted(let signal): 128 + signal
        }
    }
}
