import AVTReplay
import ArgumentParser

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ExitCode {
    /// Outputs differ, or a verdict is worse than required.
    static let differs = ExitCode(ExitStatus.differs.code)
    /// The input (file, flags) is malformed; one message on stderr says where and why.
    static let badInput = ExitCode(ExitStatus.badInput.code)
    /// Replayed, but some records could not be delivered.
    static let notDelivered = ExitCode(ExitStatus.notDelivered.code)
}

/// The one place an error ends the process: 0 ok, 1 differs/worse verdict, 2 bad input
/// (including bad flags), 3 replayed but not all delivered, 128 + N stopped by signal N.
enum ExitCodes {
    static func terminate(after error: any Error) -> Never {
        if let failure = error as? CommandFailure {
            Diagnostics.error(failure.message)
            exit(failure.status.code)
        }
        if AVTReplayCommand.exitCode(for: error) == .validationFailure {
            // Usage mistakes are bad input too: exit 2, not EX_USAGE.
            Diagnostics.printRaw(AVTReplayCommand.fullMessage(for: error))
            exit(ExitStatus.badInput.code)
        }
        AVTReplayCommand.exit(withError: error)
    }
}
