/// Text from timelines and compared files made safe to print to a terminal or a CI log: a name or
/// value can hold any character, and a raw ESC, CR, LF or bidirectional override would let a record
/// retitle the terminal, repaint or hide lines, or forge a line such as `PASS`.
package enum TerminalText {
    /// Control characters (C0, DEL, C1) and bidirectional controls as `\u001B`-style escapes; a
    /// backslash stays as it is.
    package static func escaped(_ text: String) -> String {
        escaped(text, keepingNewlines: false)
    }

    /// A message of several lines made safe: line feeds the program wrote stay, every other
    /// control character is escaped (input quoted in the message has its own line feeds escaped
    /// where it is quoted).
    package static func escapedKeepingNewlines(_ text: String) -> String {
        escaped(text, keepingNewlines: true)
    }

    private static func escaped(_ text: String, keepingNewlines: Bool) -> String {
        let escape = { (scalar: Unicode.Scalar) in needsEscape(scalar) && !(keepingNewlines && scalar == "\n") }
        guard text.unicodeScalars.contains(where: escape) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if escape(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
