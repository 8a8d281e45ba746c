import AVTCore
import XCTest

@testable import AVTOutput

/// An event with one key more than the last long one is ordered from the last one's order: a
/// binary search for the new key, not a sort of all of them (which made a timeline that sets a
/// new attribute per step cost n log n comparisons per event).
final class LongKeyOrderTests: XCTestCase {
    func testOneNewKeyCostsABinarySearchAndGivesTheNameOrder() {
        var names: [Int32: String] = [:]
        var map = AttributeMap()
        func add(_ name: String) {
            let key = Attribute(name)
            names[key.index] = name
            map[key] = .int(name.utf8.count)
        }
        for i in 0..<1000 { add("ordered\(i * 7 % 1000)") }
        var order = LongKeyOrder()
        var comparisons = 0
        func ordered() -> [String] {
            map.withUnsafeStorage { entries, _ in
                order.order(of: entries) { a, b in
                    comparisons += 1
                    return names[a]! < names[b]!
                }
                .map { names[entries[Int($0)].key.index]! }
            }
        }
        XCTAssertEqual(ordered(), names.values.sorted())
        for name in ["ordered500a", "a", "zz", "ordered0"] {
            if name != "ordered0" { add(name) }
            comparisons = 0
            XCTAssertEqual(ordered(), names.values.sorted(), name)
            XCTAssertLessThanOrEqual(comparisons, 12, "\(name): a search among 1,000 keys, not a sort")
        }
        // A key that goes is dropped without comparisons.
        map.removeValue(forKey: Attribute("ordered500"))
        names[Attribute("ordered500").index] = nil
        comparisons = 0
        XCTAssertEqual(ordered(), names.values.sorted())
        XCTAssertEqual(comparisons, 0)
    }
}
