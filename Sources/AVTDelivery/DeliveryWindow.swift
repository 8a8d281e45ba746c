/// The timestamps a server keeps, relative to the moment a point is sent. Outside it a server
/// drops points, often after answering that it took them (carbon answers nothing; New Relic
/// answers 202), so "delivered" would be a lie: each destination states its window, and
/// `DeliveryWindowFilter` keeps points outside it from being sent. docs/destinations.md has one
/// row per destination with the window's source.
package struct DeliveryWindow: Sendable, Equatable {
    /// How long ago, in ms, a point may be and still be kept; nil: no limit.
    package var past: Int?
    /// How far ahead, in ms; nil: no limit, 0: nothing later than now.
    package var ahead: Int?
    /// Who keeps the points, in messages ("carbon").
    package var keeper: String
    /// What brings the points into the window, in messages ("replay with --end-time now, …").
    package var fix: String
    /// Whether a point exactly `past` ago is kept: carbon refuses it (whisper wants `now -
    /// timestamp` below the retention), Prometheus keeps it (it refuses only older samples).
    package var keepsPastBound = false
    /// What the server takes, in messages: "point", or "sample" for remote write.
    package var noun = "point"

    package init(past: Int?, ahead: Int?, keeper: String, fix: String) {
        (self.past, self.ahead, self.keeper, self.fix) = (past, ahead, keeper, fix)
    }

    /// Whether nothing is ever outside: such a window is not checked at all.
    package var isUnbounded: Bool { past == nil && ahead == nil }

    /// Whether a point at `ms` (epoch milliseconds) is kept when sent at `now`.
    package func contains(_ ms: Int, now: Int) -> Bool {
        if let past, now - ms > past || (now - ms == past && !keepsPastBound) { return false }
        if let ahead, ms - now > ahead { return false }
        return true
    }

    /// "24 h ago to now", "48 h ago to 24 h ahead", "7 d ago onwards".
    package var description: String {
        let from = past.map { Self.span($0) + " ago" } ?? "any time before now"
        switch ahead {
        case nil: return from + " onwards"
        case 0: return from + " to now"
        case let ahead?: return from + " to " + Self.span(ahead) + " ahead"
        }
    }

    /// A duration in the largest whole unit, days from a week on: 7 d, 48 h, 90 s, 1500 ms.
    static func span(_ ms: Int) -> String {
        for (unit, size) in [("d", 86_400_000), ("h", 3_600_000), ("min", 60_000), ("s", 1000)]
        where ms % size == 0 && ms >= (unit == "d" ? 7 * size : size) {
            return "\(ms / size) \(unit)"
        }
        return "\(ms) ms"
    }
}
