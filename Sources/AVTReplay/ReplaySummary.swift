import AVTCore
import AVTOutput
import AVTTimeline

/// What one replayed session amounted to.
public struct ReplaySummary: Sendable, Equatable {
    /// Steps replayed.
    public var steps = 0
    /// What the engine did instead of what upstream would have done (usually a crash).
    public var warnings: [Instrument.Warning] = []
    /// A stop request ended the replay before its last step.
    public var interrupted = false

    /// Nothing replayed yet.
    public init() {}
}
