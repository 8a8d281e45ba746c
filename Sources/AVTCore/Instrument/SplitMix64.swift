/// SplitMix64: a tiny, fast, well-mixed generator whose whole state is one seed, so streams are
/// repeatable across runs and platforms (ids, reservoir sampling in tests, fuzzing).
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The generator's whole state; each `next()` advances it by a fixed step.
    public var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) { self.state = seed }

    /// The next 64-bit value of the sequence.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
