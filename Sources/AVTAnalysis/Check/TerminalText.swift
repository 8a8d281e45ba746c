/// Text from the compared files made safe to print: a name or value can hold any character, and
/// a raw ESC, CR or bidirectional override would let a record repaint or hide the report's lines.
package enum TerminalText {
    /// Control characters (C0, DEL, C1) and bidirectional controls as `\u001B`-style escapes; a
    /// backslash stays as it is.
    package static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if needsEscape(scalar) {
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
