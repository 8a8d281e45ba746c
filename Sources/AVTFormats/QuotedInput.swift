import AVTJSON

/// Input quoted in an error message: JSON-quoted (so control characters, quotes and line feeds
/// are escapes), cut to `limit` characters with an ellipsis, and with bidirectional and C1
/// controls escaped too. A message names the place of a problem; quoting a 50 MB name in full, or
/// the secrets of a file that is not a timeline, helps no one.
package enum QuotedInput {
    /// Characters of input a message quotes at most.
    package static let limit = 80

    /// `"text"`, at most `limit` characters of it, escaped.
    package static func quoted(_ text: String) -> String {
        // Counting stops after `limit + 1` characters: a long name costs no more than a short one.
        let prefix = text.prefix(limit + 1)
        let shown = prefix.count > limit ? String(text.prefix(limit - 1)) + "…" : text
        var w = JSONWriter(capacity: shown.utf8.count + 2)
        w.string(shown)
        return TerminalText.escaped(String(decoding: w.bytes, as: UTF8.self))
    }

    /// The text itself when it is a short plain name (letters, digits, `-`, `_`, `.`) that can be
    /// pasted into a suggested command line, else `placeholder`.
    package static func plainName(_ text: String, or placeholder: String) -> String {
        let plain =
            !text.isEmpty && text.utf8.count <= 40
            && text.unicodeScalars.allSatisfy {
                ($0.properties.isAlphabetic || $0.properties.numericType != nil || "-_.".unicodeScalars.contains($0))
                    && $0.isASCII
            }
        return plain ? text : placeholder
    }
}
