import AVTCore
import AVTJSON
import AVTTrackers

/// Names already turned into values (interned attributes, actions, key strings), found by their
/// bytes: a direct-mapped table indexed by a hash of the bytes, so a line's ~5 names cost a
/// hash and a compare each instead of a String and an interning lookup.
package struct ByteKeyCache<Value> {
    private var slots: [(key: [UInt8], value: Value)?] = Array(repeating: nil, count: 256)

    mutating func value(
        for bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, make: (String) -> Value
    ) -> Value {
        var hash: UInt32 = 2_166_136_261
        for i in range { hash = (hash ^ UInt32(bytes[i])) &* 16_777_619 }
        let slot = Int(hash >> 24)
        if let entry = slots[slot], JSONLStepScanner.equal(bytes, range, entry.key) { return entry.value }
        let key = Array(bytes[range])
        let value = make(String(decoding: key, as: UTF8.self))
        slots[slot] = (key, value)
        return value
    }
}
