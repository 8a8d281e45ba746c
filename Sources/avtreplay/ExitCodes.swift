import ArgumentParser

extension ExitCode {
    /// Outputs differ, or a verdict is worse than required.
    static let differs = ExitCode(1)
    /// The input (file, flags) is malformed; one message on stderr says where and why.
    static let badInput = ExitCode(2)
    /// Replayed, but some records could not be delivered.
    static let notDelivered = ExitCode(3)
}

/// An error already phrased for the user, with the exit code it maps to.
struct CLIFailure: Error {
    var message: String
    var exitCode: ExitCode

    static func badInput(_ message: String) -> CLIFailure { CLIFailure(message: message, exitCode: .badInput) }

    func report() { Diagnostics.error(message) }
}
