import AVTCore
import AVTJSON

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
