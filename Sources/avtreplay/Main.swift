import ArgumentParser

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the command; `ExitCodes` turns what it throws into the documented exit codes.
@main
enum Main {
    static func main() {
        // A closed stdout (`| head`) must be an EPIPE we can handle, not a silent kill.
        signal(SIGPIPE, SIG_IGN)
        var command: any ParsableCommand
        do {
            command = try AVTReplayCommand.parseAsRoot()
        } catch {
            // A refused command line gets its fix, when one is known, instead of the parser's message.
            if AVTReplayCommand.exitCode(for: error) == .validationFailure,
                let advice = UsageAdvice.message(for: Array(CommandLine.arguments.dropFirst()))
            {
                ExitCodes.terminate(usage: advice)
            }
            ExitCodes.terminate(after: error)
        }
        do {
            try command.run()
        } catch {
            ExitCodes.terminate(after: error)
        }
    }
}
