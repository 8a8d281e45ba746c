import AVTCore
import AVTTimeline
import AVTTrackers

/// A step the replayer cannot play (decoded timelines never produce these; hand-built ones may).
public enum ReplayError: Error, Equatable, CustomStringConvertible {
    /// A step at `t` comes after the clock reached `now`.
    case timeRunsBackwards(step: StepOrigin, t: Int, now: Int)
    /// A step names tracker `index`, which the settings do not have.
    case unknownTracker(step: StepOrigin, index: Int)

    public var description: String {
        switch self {
        case .timeRunsBackwards(let step, let t, let now):
            return "\(step): t \(t) is earlier than the replay's current time \(now)"
        case .unknownTracker(let step, let index):
            return "\(step): no tracker with index \(index)"
        }
    }
}
