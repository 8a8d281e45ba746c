import AVTFormats

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Messages for people, on stderr; colour only on a terminal and never with NO_COLOR or TERM=dumb.
enum Diagnostics {
    static let useColor: Bool = colorAllowed(fd: 2)

    /// Colour on this descriptor: a terminal, no NO_COLOR (set and non-empty), TERM not dumb.
    static func colorAllowed(fd: Int32) -> Bool {
        if let noColor = getenv("NO_COLOR"), noColor.pointee != 0 { return false }
        if let term = getenv("TERM"), String(cString: term) == "dumb" { return false }
        return isatty(fd) != 0
    }

    static func error(_ message: String) { emit(label: "error", color: "31", message) }
    static func warning(_ message: String) { emit(label: "warning", color: "33", message) }

    private static func emit(label: String, color: String, _ message: String) {
        let tag = useColor ? "\u{1B}[1;\(color)m\(label):\u{1B}[0m" : "\(label):"
        // The message may quote input (a name, a cell): no ESC or CR of it reaches the terminal.
        printRaw("avtreplay: \(tag) \(TerminalText.escapedKeepingNewlines(message))")
    }

    /// A line of the program's own, which may quote input (a destination from a dead-letter
    /// file, a golden's name): control characters escaped, line feeds kept.
    static func print(_ text: String) { printRaw(TerminalText.escapedKeepingNewlines(text)) }

    static func printRaw(_ text: String) {
        var line = text
        if !line.hasSuffix("\n") { line += "\n" }
        writeRaw(line)
    }

    /// Writes text to stderr as is (no newline added).
    static func writeRaw(_ line: String) {
        // write(2) on fd 2 directly: unbuffered, and no shared C `stderr` global under Swift 6.
        var bytes = Array(line.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress! + offset, $0.count - offset) }
            if n <= 0 { break }
            offset += n
        }
    }
}
