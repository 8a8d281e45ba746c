import XCTest

@testable import AVTCore

/// `AttributeMap` keeps string values aside from its plain-bits entries; whatever is set,
/// replaced or removed, the map must read as the dictionary it stands for.
final class AttributeMapTests: XCTestCase {
    private let a = Attribute("mapTestA"), b = Attribute("mapTestB"), c = Attribute("mapTestC"),
        d = Attribute("mapTestD")

    /// Applies the same changes to a map and a dictionary and compares them after each.
    private func check(_ changes: [(Attribute, AttributeValue?)], file: StaticString = #filePath, line: UInt = #line) {
        var map = AttributeMap()
        var model: [Attribute: AttributeValue] = [:]
        for (step, (key, value)) in changes.enumerated() {
            map[key] = value
            model[key] = value
            XCTAssertEqual(map.dictionary, model, "after change \(step)", file: file, line: line)
            XCTAssertEqual(map.count, model.count, file: file, line: line)
            // Every string slot belongs to exactly one entry.
            map.withUnsafeStorage { entries, strings in
                let slots = entries.compactMap { entry -> Int? in
                    if case .string(let i) = entry.stored { return i }
                    return nil
                }
                XCTAssertEqual(slots.sorted(), Array(0..<strings.count), "after change \(step)", file: file, line: line)
            }
        }
    }

    func testStringsStayConsistentThroughReplacementsAndRemovals() {
        check([
            (a, "one"), (b, 2), (c, "three"), (d, true),
            (a, "uno"),  // string replaced by a string
            (c, 3),  // string replaced by an int: its slot goes, another string moves
            (b, "two"),  // int replaced by a string
            (a, nil),  // a string removed from the middle
            (a, 1.5), (c, "tres"), (b, nil), (c, nil), (d, "cuatro"), (a, "again"),
        ])
    }

    func testOrderEqualityAndRemoveAllKeepNoStaleStrings() {
        var map: AttributeMap = [a: "x", b: 1]
        map[c] = "y"
        XCTAssertEqual(map.map(\.key), [a, b, c], "first-set order")
        XCTAssertEqual(map.removeValue(forKey: a), "x")
        XCTAssertEqual(map, [c: "y", b: 1] as AttributeMap, "equality ignores order")
        map.removeAll(keepingCapacity: true)
        XCTAssertTrue(map.isEmpty)
        map[d] = "z"
        XCTAssertEqual(map[d], "z")
        map.withUnsafeStorage { _, strings in XCTAssertEqual(Array(strings), ["z"]) }
    }
}

/// `merge` sets many pairs at once as one-by-one assignment would.
final class AttributeMapMergeTests: XCTestCase {
    func testMergeEqualsAssigningEachPairInOrder() {
        for count in [0, 5, 32, 33, 500] {
            var base: AttributeMap = [.senderId: .string("s"), .countStarts: .int(1)]
            base[Attribute("merge-existing")] = .bool(true)
            var pairs: [(attribute: Attribute, value: AttributeValue)] = []
            for i in 0..<count { pairs.append((Attribute("merge-\(i % max(1, count - 3))"), .int(i))) }
            // An existing key replaced by a string, and an existing string replaced by a number.
            pairs.append((Attribute("merge-existing"), .string("now a string")))
            pairs.append((.senderId, .int(7)))
            var expected = base
            for (key, value) in pairs { expected[key] = value }
            var merged = base
            merged.merge(pairs)
            XCTAssertEqual(merged, expected, "\(count) pairs")
            XCTAssertEqual(merged.keys, expected.keys, "\(count) pairs: the order of first setting")
        }
    }
}
