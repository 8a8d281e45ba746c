import AVTCore
import AVTJSON

/// Which deliveries a backend writes.
public struct RecordFilter: Sendable, Equatable {
    /// Whether event records are written.
    public var events = true
    /// Whether metric records are written.
    public var metrics = true

    /// A filter keeping events, metrics or both.
    public init(events: Bool = true, metrics: Bool = true) {
        self.events = events
        self.metrics = metrics
    }
}
