/// Makes one OpenMetrics text of what the `OpenMetricsBackend`s of a run write one after another
/// (one per session): OpenMetrics wants each metric family's metadata and samples together, once,
/// and the text closed by `# EOF`. Lines are sorted into their family as they come (families in
/// the order they first appear, samples in the order written, metadata kept once); `close()`
/// writes family after family, then `# EOF`, to `target` and closes it. Bytes may arrive in
/// chunks of any size. A family's samples spill to an unlinked temporary file past
/// `spillThreshold` bytes, so memory stays bounded.
package final class OpenMetricsMergingSink: ByteSink {
    private final class Family {
        var metadata: [UInt8] = []
        var seenMetadata: Set<String> = []
        var samples: [UInt8] = []
        var spool: SpoolFile?
    }

    private let target: ByteSink
    private let spillThreshold: Int
    private var pending: [UInt8] = []
    private var families: [Family] = []
    private var index: [String: Int] = [:]
    /// Sample names that belong to a family of another name (`oavt_events_total` → `oavt_events`).
    private var sampleFamilies: [String: String] = [:]
    /// Sample names seen, with their family's place in `families`.
    private var sampleNames: [(bytes: [UInt8], family: Int)] = []
    private var closed = false

    package init(target: ByteSink, spillThreshold: Int = 1 << 20) {
        self.target = target
        self.spillThreshold = spillThreshold
    }

    package func write(_ bytes: [UInt8]) throws(OutputError) {
        pending.append(contentsOf: bytes)
        var start = 0
        while let end = pending[start...].firstIndex(of: 0x0A) {
            try line(pending[start...end])
            start = end + 1
        }
        pending.removeFirst(start)
    }

    package func close() throws(OutputError) {
        guard !closed else { return }
        closed = true
        if !pending.isEmpty { try line(pending[...] + [0x0A]) }
        for family in families {
            try target.write(family.metadata)
            if let spool = family.spool {
                try spool.write(family.samples)
                try spool.rewind()
                var chunk = [UInt8](repeating: 0, count: 1 << 18)
                while true {
                    let n = try spool.read(into: &chunk, from: 0)
                    if n == 0 { break }
                    try target.write(n == chunk.count ? chunk : Array(chunk[0..<n]))
                }
            } else {
                try target.write(family.samples)
            }
        }
        try target.write(Array("# EOF\n".utf8))
        try target.close()
    }

    /// One line, its line feed included.
    private func line(_ line: ArraySlice<UInt8>) throws(OutputError) {
        if line.starts(with: "# ".utf8) {
            // `# HELP name …`, `# TYPE name counter`, `# UNIT name seconds`
            let words = line.dropLast().split(separator: 0x20, maxSplits: 3, omittingEmptySubsequences: false)
            guard words.count >= 4 else { return }
            let name = String(decoding: words[2], as: UTF8.self)
            let family = self.family(name)
            if family.seenMetadata.insert(String(decoding: words[1], as: UTF8.self)).inserted {
                family.metadata.append(contentsOf: line)
            }
            if words[1].elementsEqual("TYPE".utf8), words[3].elementsEqual("counter".utf8) {
                sampleFamilies[name + "_total"] = name
                sampleNames.removeAll { $0.bytes.elementsEqual((name + "_total").utf8) }
            }
            return
        }
        let nameEnd = line.firstIndex { $0 == 0x7B || $0 == 0x20 } ?? line.endIndex
        let name = line[line.startIndex..<nameEnd]
        // A run has a few dozen sample names and millions of samples: a linear search over the
        // names' bytes costs less than making a String of each one to look it up.
        let family: Family
        if let known = sampleNames.first(where: { $0.bytes.count == name.count && $0.bytes.elementsEqual(name) }) {
            family = families[known.family]
        } else {
            let text = String(decoding: name, as: UTF8.self)
            family = self.family(sampleFamilies[text] ?? text)
            sampleNames.append((Array(name), index[sampleFamilies[text] ?? text]!))
        }
        family.samples.append(contentsOf: line)
        if family.samples.count >= spillThreshold {
            if family.spool == nil { family.spool = try SpoolFile() }
            try family.spool?.write(family.samples)
            family.samples.removeAll(keepingCapacity: true)
        }
    }

    private func family(_ name: String) -> Family {
        if let i = index[name] { return families[i] }
        index[name] = families.count
        families.append(Family())
        return families[families.count - 1]
    }
}
