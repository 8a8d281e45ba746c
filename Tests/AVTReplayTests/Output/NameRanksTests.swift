import AVTCore
import AVTJSON
import XCTest

@testable import AVTOutput

/// Keys are written in code-point order of their names, however many names there are: past
/// `NameRanks.alwaysRankedCount` names the ranks lag behind and new names compare by text, and
/// the order must not change at that boundary or at a re-rank.
final class NameRanksTests: XCTestCase {
    func testOrderMatchesTheNamesOrderBeforeAndAfterTheRankedBoundary() {
        var ranks = NameRanks()
        // Enough new names to pass the always-ranked count and a doubling, in a scrambled order.
        let prefix = "nr-\(UUID().uuidString)-"
        let count = NameRanks.alwaysRankedCount * 3
        var indexes: [Int] = []
        for i in 0..<count {
            let attribute = Attribute(prefix + String((i * 7919) % count, radix: 36))
            indexes.append(Int(attribute.index))
            ranks.learn(upTo: Int(attribute.index) + 1)
            // Each new name against a sample of the earlier ones, including unranked ones.
            for j in stride(from: 0, to: indexes.count, by: max(1, indexes.count / 17)) {
                let (a, b) = (indexes[j], indexes.last!)
                XCTAssertEqual(
                    ranks.precedes(a, b), ranks.names[a] < ranks.names[b], "\(ranks.names[a]) vs \(ranks.names[b])")
                XCTAssertEqual(ranks.precedes(b, a), ranks.names[b] < ranks.names[a])
            }
        }
        let sorted = indexes.sorted { ranks.precedes($0, $1) }
        XCTAssertEqual(sorted.map { ranks.names[$0] }, indexes.map { ranks.names[$0] }.sorted())
    }

    /// One event with thousands of keys (past the order cache and the insertion sort) is written
    /// in name order, by the JSON encoder and by the line protocol writer alike.
    func testAnEventWithManyKeysIsWrittenInNameOrder() {
        let names = (0..<3000).map { "wide-\(($0 * 4001) % 3000)" }
        var attributes = AttributeMap()
        for (i, name) in names.enumerated() { attributes[Attribute(name)] = .int(i) }
        var encoder = RecordEncoder(trackerNames: ["c"], startTime: 0)
        var w = JSONBuffer(capacity: 1 << 16)
        encoder.encode(Event(action: .ping, timestamp: 0, trackerId: 0, attributes: attributes), into: &w)
        let line = String(decoding: w.bytes, as: UTF8.self)
        let written = line.split(separator: "\"").filter { $0.hasPrefix("wide-") }.map(String.init)
        XCTAssertEqual(written, names.sorted())
    }
}
