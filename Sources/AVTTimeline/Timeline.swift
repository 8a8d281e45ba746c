import AVTCore
import AVTJSON
import AVTTrackers

/// A whole timeline held in memory (the JSON document form).
public struct Timeline: Sendable, Equatable {
    /// Start time, hub, metrics, pings, end and the trackers.
    public var settings: TimelineSettings
    /// The steps in time order.
    public var steps: [Step]

    /// A timeline of `steps` under `settings`.
    public init(settings: TimelineSettings, steps: [Step]) {
        self.settings = settings
        self.steps = steps
    }
}
