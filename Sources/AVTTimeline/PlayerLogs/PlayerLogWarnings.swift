import AVTFormats

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a player-log reader says about the lines it skipped or the state it inferred. Real logs
/// are messy, so a reader warns and goes on; a 100 MB paste of noise must not print 100 MB of
/// warnings, so after `limit` warnings the rest are only counted, and `finish` says how many.
package struct PlayerLogWarnings {
    /// Warnings printed in full per input.
    package static let limit = 20

    private let file: String
    private let warn: (String) -> Void
    private var given = 0
    private var suppressed = 0

    package init(file: String, warn: @escaping (String) -> Void) {
        self.file = file
        self.warn = warn
    }

    /// `FILE:LINE: what, "the line"`: the line quoted, escaped and cut to 80 characters.
    package mutating func line(_ number: Int, _ text: String, _ what: String) {
        // Only counted past the limit: a noisy log warns on most lines.
        guard given < Self.limit else {
            suppressed += 1
            return
        }
        note("\(file):\(number): \(what): \(QuotedInput.quoted(text))")
    }

    /// The same, for a line kept as bytes (decoded only when the warning is shown).
    package mutating func line(_ number: Int, _ bytes: [UInt8], _ what: String) {
        if given < Self.limit {
            line(number, String(decoding: bytes, as: UTF8.self), what)
        } else {
            suppressed += 1
        }
    }

    /// The same for a part of a buffer, what is wrong said only when shown: a noisy log's
    /// lines past the limit cost a count, not a copy and a message each.
    package mutating func line(_ number: Int, _ bytes: ArraySlice<UInt8>, _ what: @autoclosure () -> String) {
        if given < Self.limit {
            line(number, String(decoding: bytes, as: UTF8.self), what())
        } else {
            suppressed += 1
        }
    }

    /// A warning about one entry, counted against the limit like a line's.
    package mutating func entry(_ message: String) {
        note("\(file): \(message)")
    }

    /// A warning about the whole input (counts, choices), never suppressed.
    package func summary(_ what: String) {
        warn("\(file): \(what)")
    }

    /// Says how many warnings were counted but not printed.
    package mutating func finish() {
        if suppressed > 0 {
            warn("\(file): \(suppressed) more warnings like these (only the first \(Self.limit) are shown)")
        }
        suppressed = 0
    }

    private mutating func note(_ message: String) {
        if given < Self.limit {
            given += 1
            warn(message)
        } else {
            suppressed += 1
        }
    }

    /// `avtreplay: warning: …` on standard error: the readers' default channel.
    package static func standardError(_ message: String) {
        let bytes = Array("avtreplay: warning: \(TerminalText.escaped(message))\n".utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(2, $0.baseAddress! + offset, $0.count - offset) }
            if n <= 0 { break }
            offset += n
        }
    }
}
