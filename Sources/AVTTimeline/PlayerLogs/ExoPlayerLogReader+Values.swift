import AVTCore
import AVTJSON
import AVTTrackers

/// The values of EventLogger lines: the events read, reason names, numbers, sizes, throwables.
extension ExoPlayerLogReader {
    // MARK: Values

    /// `Player.PLAY_WHEN_READY_CHANGE_REASON_*` names (EventLogger prints them as is).
    static let playWhenReadyReasons: Set<String> = [
        "USER_REQUEST", "AUDIO_FOCUS_LOSS", "AUDIO_BECOMING_NOISY", "REMOTE", "END_OF_MEDIA_ITEM",
        "SUPPRESSED_TOO_LONG",
    ]

    /// `Player.PLAYBACK_SUPPRESSION_REASON_*` names the exoplayer tracker takes.
    static let suppressionReasons: Set<String> = [
        "NONE", "TRANSIENT_AUDIO_FOCUS_LOSS", "UNSUITABLE_AUDIO_OUTPUT", "SCRUBBING",
    ]

    /// Whether `value` is an integer past 2^53 − 1 (said, with the line): no field holds it
    /// exactly, and read as it is it made wrong KPIs (a bitrate of 2^63 − 1). The caller skips
    /// the field, or the entry it is all of, and reads on, as the access-log reader does with
    /// `nan` and `inf`.
    mutating func isHuge(_ value: Substring, _ what: String, number: Int, text: [UInt8]) -> Bool {
        guard Self.isHugeInteger(value) else { return false }
        warnings.line(number, text, "\(what) \"\(value)\" is no usable number (past 2^53 − 1), skipped")
        return true
    }

    /// Digits (and an optional sign) of an integer past ±(2^53 − 1), whether `Int` holds it or not.
    static func isHugeInteger(_ text: Substring) -> Bool {
        let digits = text.first == "-" || text.first == "+" ? text.dropFirst() : text
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return false }
        guard let value = Int(digits) else { return true }
        return value > JSONValue.maxExactInteger
    }

    /// `1280x720` (`Format.toLogString`'s `res=`).
    static func resolution(_ text: Substring) -> (width: Int, height: Int)? {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width >= 0, height >= 0 else {
            return nil
        }
        return (width, height)
    }

    static func state(_ token: Substring) -> String? {
        switch token {
        case "IDLE", "I": return "IDLE"
        case "BUFFERING", "B": return "BUFFERING"
        case "READY", "R": return "READY"
        case "ENDED", "E": return "ENDED"
        default: return nil
        }
    }

    /// A state line's last two details (`true, BUFFERING`; `READY`), to tell a repeated line.
    static func stateDetails(_ line: EventLoggerLine) -> Substring {
        guard let first = line.details.suffix(2).first else { return "" }
        return line.detailText[first.startIndex...]
    }

    static func bool(_ token: Substring) -> Bool? {
        token == "true" ? true : token == "false" ? false : nil
    }

    /// `W, H` (≤ Media3 1.7) or `w=W, h=H(, par=…)` (1.8+).
    static func size(_ details: [Substring]) -> (width: Int, height: Int)? {
        guard details.count >= 2 else { return nil }
        let w = details[0].afterASCIIPrefix("w=") ?? details[0]
        let h = details[1].afterASCIIPrefix("h=") ?? details[1]
        guard let width = Int(w), let height = Int(h), width >= 0, height >= 0 else { return nil }
        return (width, height)
    }

    /// `com.example.SomeException: message` out of a throwable line (`\tat …` frames are not).
    static func throwableMessage(_ text: String) -> String? {
        // Most lines of a stack trace name neither: ruled out by bytes before the Characters.
        guard text.containsASCII("Exception") || text.containsASCII("Error") else { return nil }
        guard let range = text.firstRange(of: "Exception") ?? text.firstRange(of: "Error") else { return nil }
        // The Character searches only where the bytes match: a pasted line can be kilobytes long.
        if text.containsASCII("\tat ") && text.contains("\tat ")
            || text.hasSuffix(")") && text.containsASCII(" at ") && text.contains(" at ")
        {
            return nil
        }
        // Back to the start of the dotted class name.
        var start = range.lowerBound
        while start > text.startIndex {
            let before = text[text.index(before: start)]
            guard before.isLetter || before.isNumber || before == "." || before == "$" || before == "_" else { break }
            start = text.index(before: start)
        }
        // Trailing blanks dropped in place, then at most 500 Characters copied, not the whole rest.
        var end = text.endIndex
        while end > start {
            let last = text.index(before: end)
            guard text[last] == " " || text[last] == "\t" else { break }
            end = last
        }
        return end == start ? nil : String(text[start..<end].prefix(500))
    }

    static func object(_ members: [(String, JSONValue)], line: Int) -> JSONValue {
        .object(members.map { JSONMember(key: $0.0, node: JSONNode($0.1, at: SourceLocation(line: line, column: 1))) })
    }
}
