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
