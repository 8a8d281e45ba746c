import AVTOutput
import AVTTimeline

/// An error already phrased for the user, with how the command ends because of it.
package struct CommandFailure: Error, Sendable, Equatable, CustomStringConvertible {
    package var message: String
    package var status: ExitStatus

    package init(message: String, status: ExitStatus) {
        self.message = message
        self.status = status
    }

    package static func badInput(_ message: String) -> CommandFailure {
        CommandFailure(message: message, status: .badInput)
    }

    package var description: String { message }

    /// The failure an error thrown while reading inputs and writing outputs stands for; nil for a
    /// closed pipe (`avtreplay run … | head`), which ends the command quietly and successfully.
    /// Malformed input is bad input; output that cannot be written is a failure.
    package init?(_ error: any Error) {
        switch error {
        case let failure as CommandFailure: self = failure
        case let error as OutputError:
            if error.isBrokenPipe { return nil }
            self.init(message: error.description, status: error.isInputLimit ? .badInput : .failure)
        case let error as TimelineError: self = .badInput(error.description)
        case let error as UsageError: self = .badInput(error.message)
        default: self = .badInput("\(error)")
        }
    }
}
