/// A KPI value: times in integer ms, ratios as fractions, flags as booleans.
public enum KPIValue: Sendable, Equatable {
    /// A time (ms), a count or a whole number.
    case int(Int)
    /// A ratio, a mean or a rate.
    case double(Double)
    /// A flag (a playback's true or false).
    case bool(Bool)

    /// The value as a number: flags as 1 or 0.
    public var number: Double {
        switch self {
        case .int(let v): return Double(v)
        case .double(let v): return v
        case .bool(let v): return v ? 1 : 0
        }
    }
}
