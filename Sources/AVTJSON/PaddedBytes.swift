/// Bytes an encoder keeps to copy into its output again and again (JSON keys, quoted ids, a
/// repeated record header), in a form `JSONBuffer.append(_:start:count:)` copies a word at a
/// time: short pieces (most are under 32 bytes) then cost four word loads and stores instead of
/// a `memcpy` call or a byte loop, which showed in profiles at one call per attribute.
///
/// Word copies read up to `JSONBuffer.copyPadding` bytes past the end of a piece, so the storage
/// always holds that many zero bytes past `count`. Every initializer and mutator below keeps
/// that invariant; `append(_:start:count:)` relies on it and checks the piece lies in `0..<count`.
package struct PaddedBytes {
    /// The bytes, then exactly `JSONBuffer.copyPadding` zero bytes.
    @usableFromInline private(set) var storage: [UInt8]

    /// `count` zero bytes.
    @inlinable
    package init(zeros count: Int = 0) {
        precondition(count >= 0)
        storage = [UInt8](repeating: 0, count: count + JSONBuffer.copyPadding)
    }

    @inlinable
    package var count: Int { storage.count - JSONBuffer.copyPadding }

    /// The bytes, without the padding.
    @inlinable
    package var bytes: ArraySlice<UInt8> { storage[..<count] }

    @inlinable
    package mutating func append(contentsOf bytes: some Collection<UInt8>) {
        // The padding comes off and goes back on: plain appends, not the generic
        // `replaceSubrange` and `repeatElement` walks, a byte at a time through witness calls.
        storage.removeLast(JSONBuffer.copyPadding)
        storage.append(contentsOf: bytes)
        storage.append(contentsOf: Self.padding)
    }

    /// The padding's zeros, made once.
    @usableFromInline static let padding = [UInt8](repeating: 0, count: JSONBuffer.copyPadding)

    /// Appends `count` zero bytes. A memset, not the generic `append(contentsOf:)` of a
    /// `repeatElement`, which walked the collection a byte at a time through witness calls.
    @inlinable
    package mutating func appendZeros(_ count: Int) {
        precondition(count >= 0)
        // The padding is zeros already: only the new bytes are added, past it.
        storage += [UInt8](repeating: 0, count: count)
    }

    /// Overwrites bytes from `offset` on; they must lie inside `0..<count`.
    @inlinable
    package mutating func replace(at offset: Int, with bytes: some Collection<UInt8>) {
        precondition(offset >= 0 && bytes.count <= count - offset, "replacing past the end of PaddedBytes")
        // Contiguous bytes (a record header's slice of the output buffer, once per new t) are
        // copied at once: `replaceSubrange` walked a slice of a raw buffer a byte at a time
        // through witness calls, 2,000 instructions for a 60-byte header.
        let copied: Void? = bytes.withContiguousStorageIfAvailable { source in
            storage.withUnsafeMutableBufferPointer { target in
                // In bounds: `source.count <= count - offset` (checked above), and `count` is
                // below `storage.count`.
                _ = UnsafeMutableBufferPointer(rebasing: target[offset..<(offset + source.count)])
                    .update(fromContentsOf: source)
            }
        }
        if copied == nil { storage.replaceSubrange(offset..<(offset + bytes.count), with: bytes) }
    }
}

extension JSONBuffer {
    /// How many bytes past a piece's start `append(_:start:count:)` may read: at least this many,
    /// or the piece's length rounded up to whole words.
    package static let copyPadding = 32

    /// Appends `count` bytes of `source` from `start`. The copy runs in words and may read up to
    /// `copyPadding` bytes past the piece; only `count` bytes are committed.
    @inlinable @inline(__always)
    package mutating func append(_ source: PaddedBytes, start: Int, count: Int) {
        precondition(start >= 0 && count >= 0 && count <= source.count - start, "piece outside PaddedBytes")
        source.storage.withUnsafeBufferPointer { storage in
            // In bounds: the piece ends at or before `source.count` (checked above), and
            // `PaddedBytes` keeps `copyPadding` readable bytes after that (its invariant).
            copyWords(from: storage.baseAddress! + start, count: count)
        }
    }

    @inlinable
    package mutating func append(_ source: PaddedBytes, _ span: Range<Int>) {
        append(source, start: span.lowerBound, count: span.count)
    }

    /// Copies `count` bytes from `source`, reading `max(32, count rounded up to 8)` of them. The
    /// first 32 are four words whatever the length, the rest (rarely any) a word at a time.
    /// Writes past `count` go into reserved room; only `count` is committed.
    /// Only `append(_:start:count:)` calls it, after establishing those bytes are readable.
    @inlinable @inline(__always)
    internal mutating func copyWords(from source: UnsafePointer<UInt8>, count: Int) {
        let out = UnsafeMutableRawPointer(reserve(count + Self.copyPadding))
        let from = UnsafeRawPointer(source)
        out.storeBytes(of: from.loadUnaligned(as: UInt64.self), as: UInt64.self)
        out.storeBytes(of: from.loadUnaligned(fromByteOffset: 8, as: UInt64.self), toByteOffset: 8, as: UInt64.self)
        out.storeBytes(of: from.loadUnaligned(fromByteOffset: 16, as: UInt64.self), toByteOffset: 16, as: UInt64.self)
        out.storeBytes(of: from.loadUnaligned(fromByteOffset: 24, as: UInt64.self), toByteOffset: 24, as: UInt64.self)
        var offset = 32
        while offset < count {
            out.storeBytes(
                of: from.loadUnaligned(fromByteOffset: offset, as: UInt64.self), toByteOffset: offset, as: UInt64.self)
            offset += 8
        }
        commit(count)
    }
}
