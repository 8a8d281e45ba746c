import ArgumentParser

/// A limit on the command line: an integer, whose default `--help` shows in the unit people read
/// (16 MiB, 366 days) rather than as digits; the help text itself never repeats it.
struct LimitValue: ExpressibleByArgument, Sendable {
    enum Unit: Sendable {
        case count, bytes, milliseconds
    }

    var value: Int
    private var unit: Unit

    init(_ value: Int, unit: Unit = .count) {
        (self.value, self.unit) = (value, unit)
    }

    init?(argument: String) {
        guard let value = Int(argument) else { return nil }
        self.init(value)
    }

    var defaultValueDescription: String {
        let (day, mebi, gibi) = (86_400_000, 1 << 20, 1 << 30)
        switch unit {
        case .bytes where value >= gibi && value % gibi == 0: return "\(value / gibi) GiB"
        case .bytes where value >= mebi && value % mebi == 0: return "\(value / mebi) MiB"
        case .milliseconds where value >= day && value % day == 0: return "\(value / day) days"
        default: return "\(value)"
        }
    }
}
