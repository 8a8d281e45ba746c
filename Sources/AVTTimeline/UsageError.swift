/// A flag's value the library cannot use; the command line shows it as a usage error (with the
/// usage line) rather than as an input error.
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong with the arguments.
    public var message: String

    /// A usage error saying `message`.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
