import AVTCore
import AVTJSON

/// Which deliveries a backend writes.
public struct RecordFilter: Sendable, Equatable {
    public var events = true
    public var metrics = true

    public init(events: Bool = true, metrics: Bool = true) {
        self.events = events
        self.metrics = metrics
    }
}
