/// One KPI of a playback or a session: its name (a `KPIName.all` key) and value.
public struct KPI: Sendable, Equatable {
    /// The KPI's key (`startupTime`, …); `kpiName` is the same, typed.
    public let name: String
    /// Its value, in the unit `KPIName.units` gives.
    public let value: KPIValue

    /// The typed name.
    public var kpiName: KPIName { KPIName(rawValue: name) }

    /// A KPI named by its key.
    public init(_ name: String, _ value: KPIValue) {
        self.name = name
        self.value = value
    }
}

extension Array where Element == KPI {
    /// The value of the named KPI; nil when it does not apply (e.g. no startup time without a start).
    public subscript(name name: String) -> KPIValue? { first { $0.name == name }?.value }

    /// The value of the KPI; nil when it does not apply. `playback[.rebufferTime]`.
    public subscript(_ name: KPIName) -> KPIValue? { self[name: name.rawValue] }
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
