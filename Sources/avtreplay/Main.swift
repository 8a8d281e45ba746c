import ArgumentParser

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the command and maps every failure to the documented exit codes:
/// 0 ok, 1 differs/worse verdict, 2 bad input (including bad flags), 3 replayed but not all delivered.
@main
enum Main {
    static func main() {
        // A closed stdout (`| head`) must be an EPIPE we can handle, not a silent kill.
        signal(SIGPIPE, SIG_IGN)
        do {
            var command = try AVTReplayCommand.parseAsRoot()
            try command.run()
        } catch let failure as CLIFailure {
            failure.report()
            exit(failure.exitCode.rawValue)
        } catch {
            let code = AVTReplayCommand.exitCode(for: error)
            if code == .validationFailure {
                // Usage mistakes are bad input too: exit 2, not EX_USAGE.
                Diagnostics.printRaw(AVTReplayCommand.fullMessage(for: error))
                exit(ExitCode.badInput.rawValue)
            }
            AVTReplayCommand.exit(withError: error)
        }
    }
}
