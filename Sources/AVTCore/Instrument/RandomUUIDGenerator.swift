/// Random ids like upstream's `UUID().uuidString`.
public struct RandomUUIDGenerator: IdentifierGenerator {
    private var rng = SystemRandomNumberGenerator()

    /// A generator drawing from the system's random source.
    public init() {}

    /// A new random id: a version-4 UUID in upper case.
    public mutating func next() -> String {
        var high = rng.next() as UInt64
        var low = rng.next() as UInt64
        high = (high & ~0xF000) | 0x4000
        low = (low & ~(0xC000_0000_0000_0000)) | 0x8000_0000_0000_0000
        return SeededUUIDGenerator.format(high: high, low: low)
    }
}
