/// A position in a text source: 1-based line and 1-based column counted in UTF-8 bytes.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    /// The line, from 1.
    public var line: Int
    /// The column in bytes, from 1.
    public var column: Int

    /// A location at `line`, `column`.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "\(line):\(column)" }
}
