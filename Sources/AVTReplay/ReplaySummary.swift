import AVTCore
import AVTOutput
import AVTTimeline

/// What one replayed session amounted to.
public struct ReplaySummary: Sendable, Equatable {
    public var steps = 0
    public var warnings: [Instrument.Warning] = []
    /// A stop request ended the replay before its last step.
    public var interrupted = false

    public init() {}
}
