/// Why a text is not JSON, and where.
public struct JSONSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Where the input stopped being JSON.
    public var location: SourceLocation
    /// What was expected there, and what was found.
    public var message: String

    /// An error at `location`.
    public init(location: SourceLocation, message: String) {
        self.location = location
        self.message = message
    }

    public var description: String { "\(location): \(message)" }
}
