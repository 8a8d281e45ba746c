/// A growable byte buffer with JSON primitives, for output hot paths (one record per event):
/// writes are pointer stores into storage it manages itself, with none of an array's per-append
/// bookkeeping. Non-copyable, so it has one owner and its accesses are checked at compile time
/// (a class's stored properties would pay a run-time exclusivity check on every write).
package struct JSONBuffer: ~Copyable {
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @usableFromInline var capacity: Int
    /// Bytes written so far.
    package var count: Int { length }
    @usableFromInline var length = 0

    package init(capacity: Int = 1 << 16) {
        self.capacity = max(capacity, 64)
        self.base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    package var isEmpty: Bool { count == 0 }

    /// A copy of the bytes written so far.
    package var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    package func withUnsafeBytes<R, E: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R) throws(E) -> R {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    package mutating func removeAll() { length = 0 }

    /// Room for `extra` more bytes; returns where they go. Call `commit` with what was used.
    @inlinable @inline(__always)
    package mutating func reserve(_ extra: Int) -> UnsafeMutablePointer<UInt8> {
        if length + extra > capacity { grow(to: length + extra) }
        return base + length
    }

    @inlinable @inline(__always)
    package mutating func commit(_ written: Int) { length += written }

    @usableFromInline
    mutating func grow(to needed: Int) {
        let newCapacity = max(capacity * 2, needed)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: length)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    /// Fixed pieces of a record (`,"attributes":{`) are a few words long: copied as words, the
    /// last one overlapping, rather than through a `memmove` call each (several per record).
    /// Never reads past the literal.
    @inlinable
    package mutating func raw(_ ascii: StaticString) {
        let n = ascii.utf8CodeUnitCount
        let out = UnsafeMutableRawPointer(reserve(n))
        let from = UnsafeRawPointer(ascii.utf8Start)
        if n >= 8 {
            var offset = 0
            while offset &+ 8 < n {
                out.storeBytes(
                    of: from.loadUnaligned(fromByteOffset: offset, as: UInt64.self), toByteOffset: offset,
                    as: UInt64.self)
                offset &+= 8
            }
            out.storeBytes(
                of: from.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self), toByteOffset: n &- 8, as: UInt64.self)
        } else {
            out.copyMemory(from: from, byteCount: n)
        }
        commit(n)
    }

    @inlinable
    package mutating func raw(_ byte: UInt8) {
        reserve(1).pointee = byte
        commit(1)
    }

    @inlinable
    package mutating func raw(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        reserve(bytes.count).update(from: source, count: bytes.count)
        commit(bytes.count)
    }

    @inlinable
    package mutating func string(_ s: String) {
        // Native strings expose their UTF-8 in place; only bridged ones need a copy.
        let done: Void? = s.utf8.withContiguousStorageIfAvailable { utf8 in
            let out = reserve(JSONEncoding.maximumStringLength(utf8Count: utf8.count))
            commit(JSONEncoding.writeString(utf8, to: out))
        }
        if done == nil {
            var copy = s
            copy.withUTF8 { utf8 in
                let out = reserve(JSONEncoding.maximumStringLength(utf8Count: utf8.count))
                commit(JSONEncoding.writeString(utf8, to: out))
            }
        }
    }

    @inlinable
    package mutating func int(_ v: Int) {
        let out = reserve(20)
        commit(JSONEncoding.writeInt(v, to: out))
    }

    /// Swift's shortest round-trip form, as `JSONWriter.double`; non-finite values become `null`.
    package mutating func double(_ v: Double) {
        guard v.isFinite else { return raw("null") }
        var text = v.description
        text.withUTF8 { raw($0) }
    }

    @inlinable
    package mutating func bool(_ v: Bool) {
        if v { raw("true") } else { raw("false") }
    }
}
