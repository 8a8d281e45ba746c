import AVTCore
import AVTJSON
import AVTTrackers

/// A whole timeline held in memory (the JSON document form).
public struct Timeline: Sendable, Equatable {
    public var settings: TimelineSettings
    public var steps: [Step]

    public init(settings: TimelineSettings, steps: [Step]) {
        self.settings = settings
        self.steps = steps
    }
}
