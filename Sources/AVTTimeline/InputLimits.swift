/// Bounds on what one input may ask of memory and time, so that a few hostile bytes (a line
/// that never ends, a 500 MB name, a new attribute on every step) are bad input with a clear
/// message instead of gigabytes. The defaults are far beyond any real session; each has a flag
/// that raises it, and the error names both.
public struct InputLimits: Sendable, Equatable {
    /// Bytes in one line of a JSONL, CSV or log input (`--max-line-bytes`).
    public var maxLineBytes = 16 << 20
    /// Bytes in a JSON document, which is parsed as one value (`--max-document-bytes`).
    public var maxDocumentBytes = 1 << 30
    /// Bytes in one name: a tracker, an action or an attribute (`--max-name-bytes`).
    public var maxNameBytes = 4096
    /// Distinct attribute names across the inputs of one command (`--max-keys`). Names are
    /// interned for the life of the process, so this bounds their memory.
    public var maxKeys = 100_000
    /// Columns of a CSV timeline's header, and attribute columns of a CSV output (`--max-columns`):
    /// a CSV row carries every column, so its size is rows × columns.
    public var maxColumns = 1_000

    /// The defaults.
    public init() {}

    /// The message for a name longer than `maxNameBytes`; `what` is "action name" and the like.
    func nameTooLong(_ what: String, bytes: Int) -> String {
        "\(what) of \(bytes) bytes is longer than the limit of \(maxNameBytes) (--max-name-bytes)"
    }

    /// The message for an attribute name past `maxKeys` distinct ones.
    var tooManyKeys: String {
        "more than \(maxKeys) distinct attribute names (--max-keys)"
    }
}
