import AVTTimeline

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `--shard K/N`: this machine replays sessions K, K+N, K+2N, … (1-based) of the sorted list,
/// so N machines split a corpus without talking to each other.
package struct Shard: Sendable, Equatable, CustomStringConvertible {
    package let index: Int
    package let count: Int

    package init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, (1...n).contains(k) else {
            return nil
        }
        index = k
        count = n
    }

    package func select<T>(_ items: [T]) -> [T] {
        items.enumerated().filter { $0.offset % count == index - 1 }.map(\.element)
    }

    package var description: String { "\(index)/\(count)" }
}
