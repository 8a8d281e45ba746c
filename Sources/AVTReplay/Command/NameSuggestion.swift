/// The names a mistyped one most likely meant: a subcommand, an option or an option's value.
package enum NameSuggestion {
    /// The candidates that `word` abbreviates (`out` → `output`), shortest first; else the
    /// candidates closest to it by edit distance (a swap of two neighbours counts one edit),
    /// as long as that is a slip (at most a third of the word, up to three edits) and not
    /// another word.
    package static func candidates(for word: String, among names: [String]) -> [String] {
        let typed = Array(word.lowercased())
        guard !typed.isEmpty else { return [] }
        // A prefix of two letters or more is an abbreviation; one letter says too little.
        if typed.count >= 2 {
            let abbreviated = names.filter { $0.lowercased().hasPrefix(word.lowercased()) && $0.count > word.count }
            if !abbreviated.isEmpty { return abbreviated.sorted { ($0.count, $0) < ($1.count, $1) } }
        }
        let allowed = min(3, max(1, typed.count / 3))
        var best: [String] = []
        var bestDistance = allowed + 1
        for name in names {
            let distance = editDistance(typed, Array(name.lowercased()))
            if distance > allowed { continue }
            if distance < bestDistance {
                (best, bestDistance) = ([name], distance)
            } else if distance == bestDistance {
                best.append(name)
            }
        }
        return best
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and swaps of
    /// neighbours (`hlep` → `help` is one edit).
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }

    /// `'a'`, `'a' or 'b'`, `one of 'a', 'b', 'c'`, for "did you mean …?".
    package static func phrase(_ names: [String]) -> String {
        let quoted = names.prefix(6).map { "'\($0)'" }
        switch quoted.count {
        case 0: return ""
        case 1: return quoted[0]
        case 2: return "\(quoted[0]) or \(quoted[1])"
        default: return "one of " + quoted.joined(separator: ", ") + (names.count > 6 ? ", …" : "")
        }
    }
}
