import AVTReplay
import AVTTimeline
import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Ctrl-C (SIGINT) and SIGTERM during `run`: the first asks the replay to stop (it flushes every
/// backend and dead-letters what the servers did not take, then prints the summary); a second
/// one ends the process at once, for when a flush hangs.
enum Interruption {
    /// Kept alive for the life of the process.
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    static func install(_ stop: StopRequest) {
        // The sources read the signals from a signalfd, which sees only signals blocked in every
        // thread: one delivered to a thread that does not block it meets SIG_IGN and is lost.
        // Blocked here, on the main thread before the replay starts any other, every thread
        // inherits the mask.
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGINT)
        sigaddset(&blocked, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &blocked, nil)
        for number in [SIGINT, SIGTERM] {
            // The default action would kill the process before the handler runs.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                if stop.isRequested { _exit(128 + number) }
                stop.request(signal: number)
                // A replay waiting for input hears it through the input.
                InputCancellation.request()
            }
            source.resume()
            sources.append(source)
        }
    }
}
