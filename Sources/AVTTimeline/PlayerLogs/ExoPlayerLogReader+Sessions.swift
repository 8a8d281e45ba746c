import AVTCore
import AVTJSON
import AVTTrackers

/// Where a player's session ends: a new player, a cut block, a pending error, the end of the log.
extension ExoPlayerLogReader {
    mutating func newSession() {
        flushError()
        flushHeld()
        if sessionHasEvents {
            // The previous player's playback ends here; the next is a new playbackId.
            if !released {
                var stop = Step(t: lastT, tracker: tracker, origin: StepOrigin(index: queue.nextIndex))
                stop.action = .stop
                queue.push(stop)
            }
            sessions += 1
            if sessions > settings.trackers.count, tracker == settings.trackers.count - 1, !sharedWarned {
                sharedWarned = true
                warnings.summary(PlayerLogTrackers.sharedWarning(trackers: settings.trackers.count))
            }
            tracker = min(sessions, settings.trackers.count) - 1
        }
        offset = lastT
        lastEventTime = 0
        lastStateLine = nil
        pendingInit = false
        sessionHasState = false
        markNext = false
        playbackState = nil
        playWhenReady = nil
        seeking = false
        duration = nil
        released = false
    }

    mutating func closeBlock(cutAt number: Int, text: [UInt8]?) {
        guard let open = block else { return }
        if open.event.isError {
            flushError()
        } else if let text {
            warnings.line(number, text, "the \(open.event.rawValue) block of line \(open.line) has no closing ]")
        }
        block = nil
    }

    mutating func flushError() {
        errorAwaitsThrowable = false
        guard let error = pendingError else { return }
        pendingError = nil
        let message = [error.code, error.message].compactMap { $0 }.joined(separator: ": ")
        append(
            t: error.t, line: error.line,
            [(error.fatal ? .playerError : .loadError, message.isEmpty ? .string(error.name) : .string(message))])
    }

    mutating func finish() {
        atEnd = true
        flushError()
        flushHeld()
        // The log's knowledge ends at its last EventLogger line, not at its last step: a step of
        // nothing there keeps the time after the last state change (playing, buffering) in the
        // replay. (A session followed by another ends with its Stop there already.)
        if sessionHasEvents, !released, lastT > lastStepT {
            queue.push(Step(t: lastT, tracker: tracker, origin: StepOrigin(index: queue.nextIndex)))
        }
        if let open = block, !open.event.isError {
            warnings.summary("the \(open.event.rawValue) block of line \(open.line) is cut at the end of the log")
        }
        block = nil
        warnings.finish()
        guard recognized > 0 else { return }
        if noise > 0 {
            warnings.summary(
                "skipped \(noise) lines that are not EventLogger events (other tags, processes, stack traces)")
        }
        if !unmapped.isEmpty {
            warnings.summary("not replayed (the exoplayer tracker has no observation for them): \(unmapped.text)")
        }
    }
}
