import AVTCore
import AVTJSON

// Small pieces the player trackers (AVPlayer, IMA, HTML5, ExoPlayer) share: reading observation
// values, extra observation rules, a playhead that moves with virtual time and the resolution
// check that turns a bigger or smaller picture into QualityChangeUp/Down.

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

extension ScriptableTracker {
    /// The virtual time now (0 before the instrument is ready).
    var virtualNow: Int { clock?.now ?? 0 }

    /// Registers a getter whose value does not depend on the tracker (its target name).
    func registerPlayerGetter(
        _ attribute: Attribute, _ instrument: Instrument, _ value: @escaping () -> AttributeValue?
    ) {
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
