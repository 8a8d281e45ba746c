/// An output block as the docs write it, matched against what a command printed:
/// - a line that is only `…` stands for any number of lines (none too);
/// - elsewhere `…` stands for any run of characters: a line cut short (`…` at its end), an id
///   abbreviated (`06C45D18…`), a value left out (`accumBufferTime=1150i,…,playbackId`);
/// - every other character is compared as it is; trailing spaces are ignored.
struct OutputPattern {
    var lines: [String]

    init(_ lines: [String]) { self.lines = lines.map(Self.trimmingTrailingSpaces) }

    func matches(_ output: String) -> Bool {
        var actual = output.components(separatedBy: "\n").map(Self.trimmingTrailingSpaces)
        if actual.last == "" { actual.removeLast() }
        var memo: [Int: Bool] = [:]
        return match(0, 0, actual, &memo)
    }

    /// The first pattern line that no output line matches in order, to point at in a failure.
    func firstMismatch(_ output: String) -> String? {
        let actual = output.components(separatedBy: "\n").map(Self.trimmingTrailingSpaces)
        var from = 0
        for line in lines where line != "…" {
            guard let found = actual[from...].firstIndex(where: { Self.lineMatches(line, $0) }) else { return line }
            from = found + 1
        }
        return nil
    }

    private func match(_ p: Int, _ a: Int, _ actual: [String], _ memo: inout [Int: Bool]) -> Bool {
        let key = p * (actual.count + 1) + a
        if let known = memo[key] { return known }
        let result: Bool
        if p == lines.count {
            result = a == actual.count
        } else if lines[p] == "…" {
            result = (a...actual.count).contains { match(p + 1, $0, actual, &memo) }
        } else {
            result = a < actual.count && Self.lineMatches(lines[p], actual[a]) && match(p + 1, a + 1, actual, &memo)
        }
        memo[key] = result
        return result
    }

    /// One line: `…` matches any characters.
    static func lineMatches(_ pattern: String, _ line: String) -> Bool {
        let parts = pattern.components(separatedBy: "…")
        guard parts.count > 1 else { return pattern == line }
        guard line.hasPrefix(parts[0]), line.dropFirst(parts[0].count).hasSuffix(parts[parts.count - 1]) else {
            return false
        }
        var rest = Substring(line.dropFirst(parts[0].count))
        rest = rest.dropLast(parts[parts.count - 1].count)
        for part in parts.dropFirst().dropLast() where !part.isEmpty {
            guard let found = rest.range(of: part) else { return false }
            rest = rest[found.upperBound...]
        }
        return true
    }

    private static func trimmingTrailingSpaces(_ line: String) -> String {
        var line = Substring(line)
        while line.last == " " || line.last == "\t" || line.last == "\r" { line = line.dropLast() }
        return String(line)
    }
}
