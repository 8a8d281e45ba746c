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

extension Array where Element == KPI {
    /// The values in `names` order (a set's `KPIName.names`), nil where absent: one pass, as the
    /// values come in that order (a lookup per name would compare names quadratically on every row).
    package func aligned(_ names: [String]) -> [KPIValue?] {
        var out = [KPIValue?](repeating: nil, count: names.count)
        var next = 0
        for kpi in self {
            while next < names.count, names[next] != kpi.name { next += 1 }
            guard next < names.count else { break }
            out[next] = kpi.value
            next += 1
        }
        return out
    }
}
