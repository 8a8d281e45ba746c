/// Makes the ids the instrument and hubs hand out (instrumentId, streamId, playbackId).
public protocol IdentifierGenerator {
    /// A new id, different from the ones before it.
    mutating func next() -> String
}

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

/// UUID-formatted ids (upper-case, as OpenAVT-iOS prints them) from a seeded SplitMix64 stream,
/// so the same seed gives the same ids and replays are byte-identical.
public struct SeededUUIDGenerator: IdentifierGenerator, Sendable {
    private var random: SplitMix64

    /// A generator whose sequence of ids is fixed by `seed`.
    public init(seed: UInt64) { self.random = SplitMix64(seed: seed) }

    /// The next id: a version-4 UUID in upper case.
    public mutating func next() -> String {
        var high = random.next()
        var low = random.next()
        // RFC 4122 version 4 and variant bits, so the ids look like the UUIDs upstream sends.
        high = (high & ~0xF000) | 0x4000
        low = (low & ~(0xC000_0000_0000_0000)) | 0x8000_0000_0000_0000
        return Self.format(high: high, low: low)
    }

    static func format(high: UInt64, low: UInt64) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var out = [UInt8]()
        out.reserveCapacity(36)
        for (index, nibbleIndex) in (0..<32).enumerated() {
            if index == 8 || index == 12 || index == 16 || index == 20 { out.append(UInt8(ascii: "-")) }
            let word = nibbleIndex < 16 ? high : low
            let shift = UInt64(60 - 4 * (nibbleIndex % 16))
            out.append(digits[Int((word >> shift) & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}

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
