/// One KPI of a playback or a session: its name (a `KPIName.all` key) and value.
public struct KPI: Sendable, Equatable {
    public let name: String
    public let value: KPIValue

    public init(_ name: String, _ value: KPIValue) {
        self.name = name
        self.value = value
    }
}

extension Array where Element == KPI {
    /// The value of the named KPI; nil when it does not apply (e.g. no startup time without a start).
    public subscript(name name: String) -> KPIValue? { first { $0.name == name }?.value }
}
