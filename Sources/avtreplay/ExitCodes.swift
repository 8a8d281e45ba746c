import AVTReplay
import ArgumentParser

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
            Diagnostics.print(AVTReplayCommand.fullMessage(for: error))
            exit(ExitStatus.badInput.code)
        }
        AVTReplayCommand.exit(withError: error)
    }

    /// A usage mistake already phrased with its usage lines: bad input.
    static func terminate(usage message: String) -> Never {
        Diagnostics.printRaw(message)
        exit(ExitStatus.badInput.code)
    }
}
