/// A flag's value the library cannot use; the command line shows it as a usage error (with the
/// usage line) rather than as an input error.
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
