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
        do {
            var command = try AVTReplayCommand.parseAsRoot()
            try command.run()
        } catch {
            ExitCodes.terminate(after: error)
        }
    }
}
