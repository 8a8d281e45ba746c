import AVTTimeline

/// A shortest edit script between two sequences (Myers' O(ND) diff with the middle snake, so
/// memory stays linear at any size), so that one missing or extra record shows as exactly that
/// instead of shifting every later comparison. Only equal elements are ever paired: there is no
/// size or difference limit past which anything else happens.
package enum SequenceAlignment {
    enum Step: Equatable {
        case match(Int, Int)
        case delete(Int)
        case insert(Int)
    }

    static func align<T: Hashable>(_ a: [T], _ b: [T]) -> [Step] {
        let (x, y) = intern(a, b)
        var steps: [Step] = []
        steps.reserveCapacity(max(a.count, b.count))
        diff(x, 0, x.count, y, 0, y.count, into: &steps)
        return steps
    }

    /// Like `align`, but first pairs the elements whose (time, element) occurs exactly once on
    /// each side (in an order both sides agree on) and diffs only the stretches between them.
    /// That keeps scattered differences in a long sequence from costing O(N·D). Anchors are equal
    /// elements, so the script still pairs only equal elements.
    static func align<T: Hashable>(_ a: [T], _ b: [T], times timesA: [Int?], _ timesB: [Int?]) -> [Step] {
        let (x, y) = intern(a, b)
        func anchors(_ times: [Int?], _ elements: [Int], from origin: Int) -> [SIMD2<Int>] {
            zip(times, elements).map { SIMD2($0.map { $0 - origin } ?? Int.min, $1) }
        }
        var pairs = uniqueCommonAnchors(anchors(timesA, x, from: 0), anchors(timesB, y, from: 0))
        // Few anchors often means every time moved by the same amount (an earlier step took
        // longer): times counted from each side's first one may then still agree.
        if pairs.count < min(x.count, y.count) / 2, let originA = timesA.lazy.compactMap({ $0 }).first,
            let originB = timesB.lazy.compactMap({ $0 }).first, originA != originB
        {
            let shifted = uniqueCommonAnchors(anchors(timesA, x, from: originA), anchors(timesB, y, from: originB))
            if shifted.count > pairs.count { pairs = shifted }
        }
        var steps: [Step] = []
        steps.reserveCapacity(max(a.count, b.count))
        var i = 0
        var j = 0
        for (p, q) in pairs {
            diff(x, i, p, y, j, q, into: &steps)
            steps.append(.match(p, q))
            (i, j) = (p + 1, q + 1)
        }
        diff(x, i, x.count, y, j, y.count, into: &steps)
        return steps
    }

    /// Elements as small integers, so the inner loops compare numbers instead of strings.
    private static func intern<T: Hashable>(_ a: [T], _ b: [T]) -> ([Int], [Int]) {
        var ids: [T: Int] = [:]
        func id(_ element: T) -> Int {
            if let known = ids[element] { return known }
            let new = ids.count
            ids[element] = new
            return new
        }
        return (a.map(id), b.map(id))
    }

    /// Positions (in a, in b) of anchors unique on both sides, the longest run increasing in both
    /// (patience sorting, O(N log N)).
    private static func uniqueCommonAnchors<A: Hashable>(_ a: [A], _ b: [A]) -> [(Int, Int)] {
        var inA: [A: Int] = [:]
        for (index, anchor) in a.enumerated() { inA[anchor] = inA[anchor] == nil ? index : -1 }
        var inB: [A: Int] = [:]
        for (index, anchor) in b.enumerated() { inB[anchor] = inB[anchor] == nil ? index : -1 }
        var candidates: [(Int, Int)] = []
        for (index, anchor) in a.enumerated() {
            if inA[anchor] == index, let q = inB[anchor], q >= 0 { candidates.append((index, q)) }
        }
        // Longest increasing subsequence of the b positions, in a order.
        var tails: [Int] = []  // index into candidates of the smallest tail for each length
        var previous = [Int](repeating: -1, count: candidates.count)
        for (n, candidate) in candidates.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let mid = (low + high) / 2
                if candidates[tails[mid]].1 < candidate.1 { low = mid + 1 } else { high = mid }
            }
            if low > 0 { previous[n] = tails[low - 1] }
            if low == tails.count { tails.append(n) } else { tails[low] = n }
        }
        var result: [(Int, Int)] = []
        var n = tails.last ?? -1
        while n >= 0 {
            result.append(candidates[n])
            n = previous[n]
        }
        return result.reversed()
    }

    /// Appends the script for a[aLow..<aHigh] against b[bLow..<bHigh].
    private static func diff(
        _ a: [Int], _ aLow: Int, _ aHigh: Int, _ b: [Int], _ bLow: Int, _ bHigh: Int, into steps: inout [Step]
    ) {
        var aLow = aLow
        var bLow = bLow
        var aHigh = aHigh
        var bHigh = bHigh
        // Common prefix and suffix need no search and are most of a typical comparison.
        while aLow < aHigh, bLow < bHigh, a[aLow] == b[bLow] {
            steps.append(.match(aLow, bLow))
            aLow += 1
            bLow += 1
        }
        var suffix = 0
        while aLow < aHigh, bLow < bHigh, a[aHigh - 1] == b[bHigh - 1] {
            aHigh -= 1
            bHigh -= 1
            suffix += 1
        }
        if aLow == aHigh {
            for j in bLow..<bHigh { steps.append(.insert(j)) }
        } else if bLow == bHigh {
            for i in aLow..<aHigh { steps.append(.delete(i)) }
        } else {
            // After trimming, both sides are non-empty and differ at both ends, so D ≥ 2 and each
            // half has fewer differences: the recursion ends, about log2(D) deep.
            let snake = middleSnake(a, aLow, aHigh, b, bLow, bHigh)
            diff(a, aLow, snake.x, b, bLow, snake.y, into: &steps)
            for k in 0..<(snake.u - snake.x) { steps.append(.match(snake.x + k, snake.y + k)) }
            diff(a, snake.u, aHigh, b, snake.v, bHigh, into: &steps)
        }
        for k in 0..<suffix { steps.append(.match(aHigh + k, bHigh + k)) }
    }

    /// Myers' middle snake: searches from both ends at once until the paths overlap, and returns
    /// the snake (x, y) → (u, v) in the middle of a shortest edit script. Memory O(N + M).
    private static func middleSnake(
        _ a: [Int], _ aLow: Int, _ aHigh: Int, _ b: [Int], _ bLow: Int, _ bHigh: Int
    ) -> (x: Int, y: Int, u: Int, v: Int) {
        let n = aHigh - aLow
        let m = bHigh - bLow
        let delta = n - m
        let odd = delta & 1 != 0
        let maxD = (n + m + 1) / 2
        let offset = maxD + 1
        // forward[k]: furthest x on diagonal k from the start; backward[k]: furthest distance
        // from the end on diagonal k of the reversed sequences.
        var forward = [Int](repeating: 0, count: 2 * maxD + 3)
        var backward = [Int](repeating: 0, count: 2 * maxD + 3)
        for d in 0...maxD {
            for k in stride(from: -d, through: d, by: 2) {
                var x =
                    (k == -d || (k != d && forward[offset + k - 1] < forward[offset + k + 1]))
                    ? forward[offset + k + 1] : forward[offset + k - 1] + 1
                var y = x - k
                let (startX, startY) = (x, y)
                while x < n, y < m, a[aLow + x] == b[bLow + y] {
                    x += 1
                    y += 1
                }
                forward[offset + k] = x
                let c = delta - k
                if odd, c >= -(d - 1), c <= d - 1, x + backward[offset + c] >= n {
                    return (aLow + startX, bLow + startY, aLow + x, bLow + y)
                }
            }
            for k in stride(from: -d, through: d, by: 2) {
                var x =
                    (k == -d || (k != d && backward[offset + k - 1] < backward[offset + k + 1]))
                    ? backward[offset + k + 1] : backward[offset + k - 1] + 1
                var y = x - k
                let (startX, startY) = (x, y)
                while x < n, y < m, a[aHigh - 1 - x] == b[bHigh - 1 - y] {
                    x += 1
                    y += 1
                }
                backward[offset + k] = x
                let c = delta - k
                if !odd, c >= -d, c <= d, x + forward[offset + c] >= n {
                    return (aHigh - x, bHigh - y, aHigh - startX, bHigh - startY)
                }
            }
        }
        // Unreachable: the searches meet by d = ⌈(N + M) / 2⌉.
        return (aLow, bLow, aLow, bLow)
    }
}
