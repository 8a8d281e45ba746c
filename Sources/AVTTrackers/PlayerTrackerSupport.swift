import AVTCore
import AVTJSON

// Small pieces the player trackers (AVPlayer, IMA, HTML5, ExoPlayer) share: reading observation
// values, extra observation rules, a playhead that moves with virtual time and the resolution
// check that turns a bigger or smaller picture into QualityChangeUp/Down.

/// Error attributes that only OpenAVT-Android and OpenAVT-JS send, not among AVTCore's statics.
package enum PlayerAttribute {
    static let errorCode = Attribute("errorCode")
    static let errorType = Attribute("errorType")
}

/// Reads the values of observations that already passed their rule.
package enum PlayerValue {
    /// A JSON number as a Double; nil for null (or anything else).
    static func number(_ value: JSONValue) -> Double? {
        switch value {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }

    package static func integer(_ value: JSONValue) -> Int? {
        if case .int(let i) = value { return i }
        return nil
    }

    package static func string(_ value: JSONValue) -> String? {
        if case .string(let s) = value { return s }
        return nil
    }

    static func bool(_ value: JSONValue) -> Bool? {
        if case .bool(let b) = value { return b }
        return nil
    }

    /// A member of a JSON object, if present.
    package static func member(_ key: String, of value: JSONValue) -> JSONValue? {
        guard case .object(let members) = value else { return nil }
        return members.first { $0.key == key }?.node.value
    }

    /// `{"width": w, "height": h}` (already checked by `ObservationRule.size`).
    static func size(_ value: JSONValue) -> (width: Double, height: Double)? {
        guard let w = member("width", of: value).flatMap(number), let h = member("height", of: value).flatMap(number)
        else { return nil }
        return (w, h)
    }
}

extension ObservationRule {
    /// A number ≥ 0 (times, bitrates).
    static let nonNegativeNumber = ObservationRule(expected: "a number ≥ 0") {
        guard let n = PlayerValue.number($0) else { return false }
        return n >= 0
    }

    /// An integer ≥ 0 (pixel sizes, bitrates).
    static let nonNegativeInteger = ObservationRule(expected: "an integer ≥ 0") {
        guard let i = PlayerValue.integer($0) else { return false }
        return i >= 0
    }

    /// A volume from 0 (silent) to 1 (full), as players report it.
    static let unitInterval = ObservationRule(expected: "a number from 0 to 1") {
        guard let n = PlayerValue.number($0) else { return false }
        return n >= 0 && n <= 1
    }

    /// Only `true`: a one-shot signal.
    static let trueSignal = ObservationRule(expected: "true") { $0 == .bool(true) }

    /// An object whose members are all optional but must be among `members`, each passing its
    /// rule; `required` lists the members that must be there.
    static func object(_ members: [String: ObservationRule], required: [String], expected: String) -> ObservationRule {
        ObservationRule(expected: expected) { value in
            guard case .object(let given) = value else { return false }
            var seen: Set<String> = []
            for member in given {
                guard let rule = members[member.key], rule.check(member.node.value), seen.insert(member.key).inserted
                else { return false }
            }
            return required.allSatisfy(seen.contains)
        }
    }

    /// Either of two rules.
    func or(_ other: ObservationRule, expected: String) -> ObservationRule {
        let first = self
        return ObservationRule(expected: expected) { first.check($0) || other.check($0) }
    }
}

/// A player's playhead on the virtual clock: the last known position (ms) plus the time played
/// since then at the current speed. A position observation rebases it; so does every change of
/// speed, which keeps the position continuous.
package struct Playhead {
    /// Position in ms at `baseTime`; nil while the position is unknown.
    private(set) var base: Double?
    private var baseTime = 0
    /// Media ms per virtual ms; 0 while the playhead stands still.
    private(set) var speed: Double = 0

    func position(at now: Int) -> Double? {
        guard let base else { return nil }
        return base + Double(now - baseTime) * speed
    }

    /// The player reported its position (a seek, or a correction); nil: unknown.
    mutating func set(_ position: Double?, at now: Int) {
        base = position
        baseTime = now
    }

    /// The playhead starts, stops or changes speed from `now` on.
    mutating func setSpeed(_ newSpeed: Double, at now: Int) {
        guard newSpeed != speed else { return }
        base = position(at: now)
        baseTime = now
        speed = newSpeed
    }
}

/// Upstream's resolution check (AVPlayer, ExoPlayer): the first reading with a non-zero width and
/// height only sets the baseline; after that a bigger area (width × height) is QualityChangeUp,
/// a smaller one QualityChangeDown, and every reading becomes the new baseline. A zero reading
/// after a baseline is a change down and makes the next reading a new baseline.
package struct ResolutionWatch {
    private var lastWidth = 0
    private var lastHeight = 0

    mutating func check(width: Int, height: Int) -> Action? {
        defer {
            lastWidth = width
            lastHeight = height
        }
        guard lastWidth != 0, lastHeight != 0 else { return nil }
        // Full-width products: a timeline may carry any size, and the comparison must not trap.
        let last = lastWidth.multipliedFullWidth(by: lastHeight)
        let current = width.multipliedFullWidth(by: height)
        if (current.high, current.low) > (last.high, last.low) { return .qualityChangeUp }
        if (current.high, current.low) < (last.high, last.low) { return .qualityChangeDown }
        return nil
    }
}

extension ScriptableTracker {
    /// The virtual time now (0 before the instrument is ready).
    var virtualNow: Int { clock?.now ?? 0 }

    /// Registers a getter whose value does not depend on the tracker (its target name).
    func registerPlayerGetter(_ attribute: Attribute, _ instrument: Instrument, _ value: @escaping () -> AttributeValue?) {
        instrument.registerGetter(attribute, AttributeGetter(value: value), tracker: self)
    }

    /// Registers a getter for one of this tracker's attributes; `value` is handed the tracker
    /// (`reading`, normally `self`) on every call, so it captures nothing.
    func registerPlayerGetter<Subject: ScriptableTracker>(
        _ attribute: Attribute, _ instrument: Instrument, reading tracker: Subject,
        _ value: @escaping (Subject) -> AttributeValue?
    ) {
        instrument.registerGetter(attribute, AttributeGetter(reading: tracker, value: value), tracker: self)
    }
}

/// `Int(x)` that tolerates values a Double can hold but an Int cannot (treated as unknown).
package func truncatedInt(_ x: Double) -> Int? {
    guard x.isFinite, x > -9.2e18, x < 9.2e18 else { return nil }
    return Int(x)
}

/// JavaScript's `Math.round` for the HTML5 tracker's getters (halves round up).
package func jsRoundedInt(_ x: Double) -> Int? {
    truncatedInt((x + 0.5).rounded(.down))
}

/// Upstream iOS's `Int(volume * 100)` with `volume` a Float: computed in Float, truncated.
package func percentVolume(_ volume: Double) -> Int {
    Int(Float(volume) * 100)
}
