import AVTCore

/// Deterministic ids derived from text: FNV-1a over the UTF-8 bytes seeds the engine's SplitMix64
/// UUID generator, so the same text gives the same upper-case v4-style UUID on every platform.
package enum DerivedIdentifier {
    static func uuid(_ text: String) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        var generator = SeededUUIDGenerator(seed: hash)
        return generator.next()
    }
}
