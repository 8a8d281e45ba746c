/// Makes one OpenMetrics text of what the `OpenMetricsBackend`s of a run write one after another
/// (one per session). OpenMetrics wants each metric family's metadata and samples together, once,
/// each series' samples together within its family (the Prometheus project's own parser,
/// `prometheus_client`, refuses a series that comes back after another: "Invalid metric
/// grouping"), and the text closed by `# EOF`. Lines are sorted into their family and series as
/// they come (families and series in the order they first appear, samples in the order
/// written, metadata kept once); `close()` writes family after family, series after series, then
/// `# EOF`, to `target` and closes it. Bytes may arrive in chunks of any size.
///
/// Memory stays bounded: once the series' buffers hold `spillThreshold` bytes, each buffer is
/// appended to one unlinked temporary file and remembered as a piece (offset and length) of its
/// series, which `close()` reads back in order.
package final class OpenMetricsMergingSink: ByteSink {
    // Values, not objects, reached in place through `families`: a line costs no reference
    // counting (a run writes millions of lines).
    private struct Series {
        var buffer: [UInt8] = []
        /// Pieces already in the spool file, in order.
        var pieces: [(offset: Int, count: Int)] = []
    }

    private struct Family {
        var metadata: [UInt8] = []
        var seenMetadata: Set<String> = []
        var series: [Series] = []
        /// Each series' name and labels, in the order of `series`.
        var keys: [[UInt8]] = []
        /// A series' place in `series` by the FNV-1a hash of its key: a line is looked up without
        /// copying its key (a run writes millions of lines and few series).
        var byHash: [UInt64: Int] = [:]
        /// Series whose key's hash another key had first (rare): looked up by the key itself.
        var collided: [[UInt8]: Int] = [:]
        /// A histogram's point (its buckets, `_count` and `_sum` at one time) is one group whose
        /// samples stay together, so its series are keyed without the suffix and `le`.
        var histogram = false

        /// The place of the series of the key `line[start..<end]`, made if it is new.
        mutating func series(_ line: ArraySlice<UInt8>, _ start: Int, _ end: Int, hash: UInt64) -> Int {
            if let i = byHash[hash] {
                if keys[i].count == end - start, keys[i][...] == line[start..<end] { return i }
                let key = Array(line[start..<end])
                if let j = collided[key] { return j }
                collided[key] = series.count
                return add(key)
            }
            byHash[hash] = series.count
            return add(Array(line[start..<end]))
        }

        private mutating func add(_ key: [UInt8]) -> Int {
            series.append(Series())
            keys.append(key)
            return series.count - 1
        }
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
    /// Bytes waiting in series' buffers, across families.
    private var buffered = 0
    private var spool: SpoolFile?
    private var spooled = 0
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
            for series in family.series {
                for piece in series.pieces {
                    guard let spool else { break }
                    try target.write(try spool.read(piece.count, at: piece.offset))
                }
                try target.write(series.buffer)
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
            if families[family].seenMetadata.insert(String(decoding: words[1], as: UTF8.self)).inserted {
                families[family].metadata.append(contentsOf: line)
            }
            if words[1].elementsEqual("TYPE".utf8), words[3].elementsEqual("counter".utf8) {
                sampleFamilies[name + "_total"] = name
                sampleNames.removeAll { $0.bytes.elementsEqual((name + "_total").utf8) }
            }
            if words[1].elementsEqual("TYPE".utf8), words[3].elementsEqual("histogram".utf8) {
                families[family].histogram = true
                for suffix in ["_bucket", "_count", "_sum"] {
                    sampleFamilies[name + suffix] = name
                    sampleNames.removeAll { $0.bytes.elementsEqual((name + suffix).utf8) }
                }
            }
            return
        }
        let nameEnd = line.firstIndex { $0 == 0x7B || $0 == 0x20 } ?? line.endIndex
        let name = line[line.startIndex..<nameEnd]
        // A run has a few dozen sample names and millions of samples: a linear search over the
        // names' bytes costs less than making a String of each one to look it up.
        let family: Int
        if let known = sampleNames.first(where: { $0.bytes.count == name.count && $0.bytes.elementsEqual(name) }) {
            family = known.family
        } else {
            let text = String(decoding: name, as: UTF8.self)
            family = self.family(sampleFamilies[text] ?? text)
            sampleNames.append((Array(name), family))
        }
        // The series is the line before its last two fields (value and timestamp, which hold no
        // space; a label value may), without the line feed.
        var end = line.endIndex - 1
        var spaces = 0
        var i = end - 1
        while i >= line.startIndex, spaces < 2 {
            if line[i] == 0x20 {
                spaces += 1
                end = i
            }
            i -= 1
        }
        let series: Int
        if families[family].histogram {
            let key = Self.histogramGroup(line[line.startIndex..<end], nameEnd: nameEnd)
            series = families[family].series(key[...], 0, key.count, hash: Self.hash(key[...]))
        } else {
            series = families[family].series(line, line.startIndex, end, hash: Self.hash(line[line.startIndex..<end]))
        }
        families[family].series[series].buffer.append(contentsOf: line)
        buffered += line.count
        if buffered >= spillThreshold { try spill() }
    }

    /// FNV-1a of a series key.
    private static func hash(_ key: ArraySlice<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in key { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return hash
    }

    /// A histogram sample's group: its labels without `le` (the name's suffix dropped too, as
    /// every sample of the family shares the group's key apart from it).
    private static func histogramGroup(_ series: ArraySlice<UInt8>, nameEnd: Int) -> [UInt8] {
        var key: [UInt8] = []
        var i = nameEnd
        while i < series.endIndex {
            // A label starts after `{` or `,`; `le="…"` holds no quote or backslash.
            let atLabel = series[i - 1] == 0x7B || series[i - 1] == 0x2C
            if atLabel, series[i...].starts(with: "le=\"".utf8) {
                var j = i + 4
                while j < series.endIndex, series[j] != 0x22 { j += 1 }
                i = j + 1
                if i < series.endIndex, series[i] == 0x2C { i += 1 }
                continue
            }
            key.append(series[i])
            i += 1
        }
        // `le` was the last label: `{a="1",}` or `{}` is what `_count` writes as `{a="1"}` or nothing.
        if key.last == 0x7D, key.count >= 2, key[key.count - 2] == 0x2C { key.remove(at: key.count - 2) }
        return key == Array("{}".utf8) ? [] : key
    }

    /// Moves every series' buffer to the spool file, as the next piece of that series.
    private func spill() throws(OutputError) {
        if spool == nil { spool = try SpoolFile() }
        guard let spool else { return }
        for f in families.indices {
            for s in families[f].series.indices where !families[f].series[s].buffer.isEmpty {
                let count = families[f].series[s].buffer.count
                try spool.write(families[f].series[s].buffer)
                families[f].series[s].pieces.append((spooled, count))
                spooled += count
                families[f].series[s].buffer = []
            }
        }
        buffered = 0
    }

    /// The place of the family `name` in `families`, made if it is new.
    private func family(_ name: String) -> Int {
        if let i = index[name] { return i }
        index[name] = families.count
        families.append(Family())
        return families.count - 1
    }
}
