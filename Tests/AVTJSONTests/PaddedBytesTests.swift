import XCTest

@testable import AVTJSON

/// `JSONBuffer.append(_:start:count:)` copies in words and reads past the piece; `PaddedBytes`
/// keeps those bytes readable. Every length around the word and padding sizes, pieces at the
/// very end of the storage, and what lies after a piece never reaching the output.
final class PaddedBytesTests: XCTestCase {
    private static let lengths = [0, 1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 39, 40, 41, 63, 64, 65, 100, 257]

    private func pattern(_ count: Int, seed: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ seed &* 7 &+ 1) }
    }

    func testEveryLengthCopiesExactlyItsBytesFromAnywhere() {
        for length in Self.lengths {
            var bytes = PaddedBytes()
            let before = pattern(5, seed: 1)
            let piece = pattern(length, seed: length)
            bytes.append(contentsOf: before)
            bytes.append(contentsOf: piece)
            XCTAssertEqual(bytes.count, 5 + length)
            XCTAssertEqual(Array(bytes.bytes), before + piece)
            var w = JSONBuffer(capacity: 1)
            w.append(bytes, start: 5, count: length)  // at the very end of the storage
            w.append(bytes, start: 0, count: 5)
            w.append(bytes, 5..<(5 + length))
            XCTAssertEqual(w.bytes, piece + before + piece, "length \(length)")
        }
    }

    func testAPieceFollowedByOtherBytesCopiesOnlyItself() {
        var bytes = PaddedBytes()
        bytes.append(contentsOf: pattern(300, seed: 3))
        for length in Self.lengths where length <= 100 {
            for start in [0, 1, 7, 8, 9, 100] {
                var w = JSONBuffer(capacity: 64)
                w.raw("[")
                w.append(bytes, start: start, count: length)
                w.raw("]")
                XCTAssertEqual(
                    w.bytes, [UInt8(ascii: "[")] + Array(bytes.bytes[start..<(start + length)]) + [UInt8(ascii: "]")])
            }
        }
    }

    func testReplaceKeepsTheCountAndThePaddingAfterIt() {
        var bytes = PaddedBytes(zeros: 40)
        XCTAssertEqual(bytes.count, 40)
        bytes.replace(at: 8, with: pattern(32, seed: 9))
        XCTAssertEqual(bytes.count, 40)
        XCTAssertEqual(Array(bytes.bytes), [UInt8](repeating: 0, count: 8) + pattern(32, seed: 9))
        var w = JSONBuffer()
        w.append(bytes, start: 8, count: 32)
        XCTAssertEqual(w.bytes, pattern(32, seed: 9))
        // The padding itself is still zeros: appending after a replace does not expose old bytes.
        bytes.append(contentsOf: [1, 2])
        XCTAssertEqual(Array(bytes.bytes.suffix(2)), [1, 2])
        XCTAssertEqual(bytes.storage.count, bytes.count + JSONBuffer.copyPadding)
        XCTAssertTrue(bytes.storage[bytes.count...].allSatisfy { $0 == 0 })
    }

    /// Contiguous bytes (a buffer's slice) are copied at once, anything else element by element:
    /// both give the same bytes at every offset and length, and leave the padding alone.
    func testReplaceFromContiguousAndOtherCollectionsAgrees() {
        for offset in 0...20 {
            for length in 0...(20 - offset) {
                let source = pattern(length, seed: offset)
                var fromSlice = PaddedBytes(zeros: 20)
                source.withUnsafeBufferPointer { fromSlice.replace(at: offset, with: $0[...]) }
                var fromLazy = PaddedBytes(zeros: 20)
                fromLazy.replace(at: offset, with: source.lazy.map { $0 })
                let expected =
                    [UInt8](repeating: 0, count: offset) + source
                    + [UInt8](repeating: 0, count: 20 - offset - length)
                XCTAssertEqual(Array(fromSlice.bytes), expected, "offset \(offset), length \(length)")
                XCTAssertEqual(Array(fromLazy.bytes), expected, "offset \(offset), length \(length)")
                XCTAssertTrue(fromSlice.storage[fromSlice.count...].allSatisfy { $0 == 0 })
            }
        }
    }

    /// Zeros appended in one go (an encoder's cache growing) keep the count and the padding.
    func testAppendedZerosKeepThePadding() {
        var bytes = PaddedBytes()
        bytes.append(contentsOf: [7, 8, 9])
        bytes.appendZeros(130)
        XCTAssertEqual(bytes.count, 133)
        XCTAssertEqual(Array(bytes.bytes), [7, 8, 9] + [UInt8](repeating: 0, count: 130))
        XCTAssertEqual(bytes.storage.count, bytes.count + JSONBuffer.copyPadding)
        XCTAssertTrue(bytes.storage[bytes.count...].allSatisfy { $0 == 0 })
        bytes.replace(at: 131, with: [5, 6])
        var w = JSONBuffer()
        w.append(bytes, start: 130, count: 3)
        XCTAssertEqual(w.bytes, [0, 5, 6])
    }

    func testAnEmptyBufferCopiesNothing() {
        let bytes = PaddedBytes()
        var w = JSONBuffer()
        w.append(bytes, start: 0, count: 0)
        XCTAssertTrue(w.isEmpty)
    }
}
