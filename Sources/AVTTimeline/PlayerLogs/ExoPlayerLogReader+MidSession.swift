import AVTCore
import AVTJSON
import AVTTrackers

/// What a session's first lines say of the time before the log: a player created and prepared
/// in the log, or one already under way (`midSession`).
extension ExoPlayerLogReader {
    /// What a session's first line about the player's state says of the time before the log.
    enum FirstSign {
        /// `state BUFFERING`: prepare(), the start of a playback.
        case start
        /// Nothing yet: `playWhenReady true` (a fresh player may be asked to play before
        /// prepare()), `state IDLE` (up to r2.11 a state line is printed for that request too).
        case unsettled
        /// It was playing before the line: `isPlaying false`, `playWhenReady false`, `state ENDED`.
        case wasPlaying(String)
        /// It plays from the line on (`isPlaying true`): loaded, ready, play requested.
        case playsNow
        /// The stream was loaded before (`state READY`).
        case loaded
        /// `state BUFFERING` long after the player was created (`lateStart`): a rebuffer, a seek
        /// or a new item of a session already under way, not its prepare().
        case bufferingLate(Int)
        /// A seek long after the player was created: a viewer seeking what was playing.
        case seekLate(Int)
    }

    static func firstSign(_ state: String, eventTime: Int?) -> FirstSign {
        switch state {
        case "BUFFERING":
            if let eventTime, eventTime >= lateStart { return .bufferingLate(eventTime) }
            return .start
        case "READY": return .loaded
        case "ENDED": return .wasPlaying("state ENDED")
        default: return .unsettled
        }
    }

    /// A log that starts in the middle of a session. A fresh player's first state other than
    /// IDLE (the state it is created in) is BUFFERING (prepare()), and its first isPlaying or
    /// playWhenReady change can only be to true. So a session whose first state line is READY or
    /// ENDED, or whose first change is `isPlaying false`, `playWhenReady false` or `isPlaying
    /// true` before any state line, began before the log.
    /// When it was playing, two steps at the line's time make it so (a stream loaded, ready,
    /// play requested); READY first gets the load before it. The log does not show the startup:
    /// the session's first step carries `midSession`, and `kpi` leaves its startup out rather
    /// than measure a join of 0.
    ///
    /// Returns whether it inferred that the session began before the log.
    @discardableResult
    mutating func inferIfMidSession(_ sign: FirstSign, t: Int, number: Int, text: [UInt8]) -> Bool {
        guard !sessionHasState else { return false }
        let inferred: String
        switch sign {
        case .unsettled:
            return false
        case .start:
            sessionHasState = true
            return false
        case .wasPlaying(let firstSays):
            inferred = "(\(firstSays) first): inferred the player was playing before"
        case .playsNow:
            inferred = "(isPlaying true first): inferred the stream was loaded and plays from there"
        case .loaded:
            inferred = "(state READY first, without the BUFFERING of its start): inferred the stream was loaded before"
        case .bufferingLate(let eventTime):
            inferred =
                "(its first state, BUFFERING, is at eventTime \(Self.seconds(eventTime)) s, long after the player was created): inferred the stream was loaded before"
        case .seekLate(let eventTime):
            inferred =
                "(a seek first, at eventTime \(Self.seconds(eventTime)) s, long after the player was created): inferred the player was playing before"
        }
        sessionHasState = true
        markNext = true
        warnings.line(number, text, "the log starts mid-session \(inferred); its startup is not in the log")
        switch sign {
        case .wasPlaying, .playsNow, .seekLate:
            append(t: t, line: number, [(.playbackState, .string("BUFFERING"))])
            append(t: t, line: number, [(.playbackState, .string("READY")), (.playWhenReady, .bool(true))])
            playbackState = "READY"
            playWhenReady = true
        default:
            append(t: t, line: number, [(.playbackState, .string("BUFFERING"))])
            playbackState = "BUFFERING"
        }
        return true
    }

    /// `1668.52` for an eventTime of 1668520 ms (EventLogger's 10 ms resolution).
    static func seconds(_ eventTime: Int) -> String {
        "\(eventTime / 1000).\(String(eventTime % 1000 / 10 + 100).dropFirst())"
    }

    /// The session's first BUFFERING followed by `isPlaying false` at the same time: a fresh
    /// player's first isPlaying change can only be to true, so this one was playing before the
    /// log and the BUFFERING is a stall, not its prepare(). Loaded and playing are inferred at
    /// the line's time, then the stall.
    mutating func startedPlaying(
        before held: (t: Int, line: Int, observe: [(ObservationName, JSONValue)]), number: Int, text: [UInt8]
    ) {
        (heldReady, heldIsStart) = (nil, false)
        markNext = true
        warnings.line(
            number, text,
            "the log starts mid-session (isPlaying false right after its first BUFFERING): inferred the player "
                + "was playing before; its startup is not in the log")
        append(t: held.t, line: held.line, [(.playbackState, .string("BUFFERING"))])
        append(t: held.t, line: held.line, [(.playbackState, .string("READY")), (.playWhenReady, .bool(true))])
        append(t: held.t, line: held.line, held.observe)
        (playbackState, playWhenReady) = ("BUFFERING", true)
    }

    /// The held first READY goes out as it is (see `heldReady`).
    mutating func flushHeld() {
        guard let held = heldReady else { return }
        (heldReady, heldIsStart) = (nil, false)
        append(t: held.t, line: held.line, held.observe)
    }
}
