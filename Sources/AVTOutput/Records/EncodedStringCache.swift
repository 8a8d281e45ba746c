import AVTJSON

/// The JSON spelling (`"…"`) of the last string each attribute had, reused while the attribute
/// holds that same String again. Ids, sources and tracker targets repeat on every event of a
/// playback, and scanning and escaping them each time was a fifth of the encoder's work.
///
/// "The same String" is decided by its representation (two words), which is exact: a small
/// string's words are its bytes, and a large one's name its storage and length. The slot keeps
/// the String it was made from, so that storage can be neither freed (and its address reused by
/// another string) nor changed in place (it is not uniquely referenced) while the slot stands.
package struct EncodedStringCache {
    private typealias Identity = (UInt64, UInt64)

    /// Per attribute index: the cached string's representation and the string itself.
    private var identities: [Identity] = []
    private var strings: [String] = []
    /// Per attribute index, the encoding's length; -1 when nothing is cached.
    private var lengths: [Int] = []
    /// Per attribute index, `stride` bytes starting with the encoding. Longer encodings are
    /// written afresh each time.
    private var arena = PaddedBytes()
    private static let stride = 128
    /// The slots kept at most (128 KiB of arena).
    private static let slotLimit = 1024

    mutating func write(_ string: String, slot: Int, into w: inout JSONBuffer) {
        // Attribute indexes are the process's: past the first few thousand names (a corpus
        // whose sessions each bring their own) a slot would cost its stride in every session.
        guard slot < Self.slotLimit else { return w.string(string) }
        let identity = unsafeBitCast(string, to: Identity.self)
        if slot >= identities.count { grow(to: Swift.min(Self.slotLimit, Swift.max(slot + 1, identities.count * 2))) }
        if identities[slot] != identity || lengths[slot] < 0 {
            guard remember(string, identity, slot: slot) else { return w.string(string) }
        }
        let count = lengths[slot]
        w.append(arena, start: slot * Self.stride, count: count)
    }

    /// For strings without a slot of their own (metric names): the slot is picked from the
    /// representation, so a few distinct constants each settle in one (a clash only costs a
    /// fresh encoding).
    mutating func write(_ string: String, into w: inout JSONBuffer) {
        let identity = unsafeBitCast(string, to: Identity.self)
        let mixed = (identity.0 ^ identity.1 &* 0x9E37_79B9_7F4A_7C15) &* 0xBF58_476D_1CE4_E5B9
        write(string, slot: Int(truncatingIfNeeded: mixed >> 59), into: &w)
    }

    /// Caches the string's encoding in its slot; false (and the slot emptied) when it is too long.
    private mutating func remember(_ string: String, _ identity: Identity, slot: Int) -> Bool {
        var writer = JSONWriter(capacity: string.utf8.count + 2)
        writer.string(string)
        let bytes = writer.bytes
        guard bytes.count <= Self.stride else {
            lengths[slot] = -1
            return false
        }
        let start = slot * Self.stride
        arena.replace(at: start, with: bytes)
        lengths[slot] = bytes.count
        strings[slot] = string
        identities[slot] = identity
        return true
    }

    private mutating func grow(to count: Int) {
        let extra = count - identities.count
        identities += Array(repeating: (0, 0), count: extra)
        strings += Array(repeating: "", count: extra)
        lengths += Array(repeating: -1, count: extra)
        arena.appendZeros(extra * Self.stride)
    }
}
