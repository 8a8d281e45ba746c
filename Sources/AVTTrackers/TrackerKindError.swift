/// Why `TrackerKind.register` refused a name.
public struct TrackerKindError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The name given.
    public let name: String
    /// Why it was refused.
    public let reason: String

    /// `tracker kind "NAME": reason`.
    public var description: String { "tracker kind \"\(name)\": \(reason)" }
}
