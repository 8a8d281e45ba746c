/// Makes the ids the instrument and hubs hand out (instrumentId, streamId, playbackId).
public protocol IdentifierGenerator {
    /// A new id, different from the ones before it.
    mutating func next() -> String
}
