import AVTTimeline

/// Myers' O(ND) shortest edit script between two sequences, so that one missing or extra record
/// shows as exactly that instead of shifting every later comparison.
package enum SequenceAlignment {
    enum Step: Equatable {
        case match(Int, Int)
        case delete(Int)
        case insert(Int)
    }

    /// Beyond this many differences the trace would grow quadratically; the rest is then paired
    /// up positionally, which still reports every record, only less precisely.
    static let maximumDifferences = 4000

    static func align<T: Equatable>(_ a: [T], _ b: [T]) -> [Step] {
        // Common prefix and suffix need no search and are most of a typical comparison.
        var prefix = 0
        while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix, suffix < b.count - prefix, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] {
            suffix += 1
        }
        var steps = (0..<prefix).map { Step.match($0, $0) }
        let middle = myers(Array(a[prefix..<(a.count - suffix)]), Array(b[prefix..<(b.count - suffix)]))
        for step in middle {
            switch step {
            case .match(let i, let j): steps.append(.match(i + prefix, j + prefix))
            case .delete(let i): steps.append(.delete(i + prefix))
            case .insert(let j): steps.append(.insert(j + prefix))
            }
        }
        for k in 0..<suffix { steps.append(.match(a.count - suffix + k, b.count - suffix + k)) }
        return steps
    }

    private static func myers<T: Equatable>(_ a: [T], _ b: [T]) -> [Step] {
        let n = a.count
        let m = b.count
        if n == 0 { return (0..<m).map { .insert($0) } }
        if m == 0 { return (0..<n).map { .delete($0) } }
        let maxD = min(n + m, maximumDifferences)
        let offset = maxD + 1
        var v = [Int](repeating: 0, count: 2 * maxD + 3)
        var trace: [[Int]] = []
        for d in 0...maxD {
            trace.append(v)
            for k in stride(from: -d, through: d, by: 2) {
                var x: Int
                if k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]) {
                    x = v[offset + k + 1]
                } else {
                    x = v[offset + k - 1] + 1
                }
                var y = x - k
                while x < n, y < m, a[x] == b[y] {
                    x += 1
                    y += 1
                }
                v[offset + k] = x
                if x >= n, y >= m { return backtrack(trace, n: n, m: m, offset: offset) }
            }
        }
        return positional(n, m)
    }

    /// Walks the saved frontiers back from the end to recover the edit script.
    private static func backtrack(_ trace: [[Int]], n: Int, m: Int, offset: Int) -> [Step] {
        var x = n
        var y = m
        var steps: [Step] = []
        for d in stride(from: trace.count - 1, through: 0, by: -1) {
            let v = trace[d]
            let k = x - y
            let previousK = (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1])) ? k + 1 : k - 1
            let previousX = v[offset + previousK]
            let previousY = previousX - previousK
            while x > previousX, y > previousY {
                x -= 1
                y -= 1
                steps.append(.match(x, y))
            }
            if d > 0 {
                if x == previousX { steps.append(.insert(y - 1)) } else { steps.append(.delete(x - 1)) }
            }
            x = previousX
            y = previousY
        }
        return steps.reversed()
    }

    private static func positional(_ n: Int, _ m: Int) -> [Step] {
        (0..<min(n, m)).map { .match($0, $0) } + (min(n, m)..<n).map { .delete($0) }
            + (min(n, m)..<m).map { .insert($0) }
    }
}
