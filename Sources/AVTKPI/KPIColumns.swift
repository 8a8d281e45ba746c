import AVTOutput

/// Each KPI's values across playbacks, for exact percentiles: a column of doubles per KPI. Up to
/// `inMemory` values are held in memory (8 bytes each); past that every column's values so far
/// are spilled to a temporary file (unlinked at once, so nothing is left behind) and only the
/// offsets of each column's blocks are kept. A column is read back whole, one at a time, when the
/// statistics are computed. So 10^6 playbacks of 40 KPIs hold at most `inMemory` values and one
/// column (8 MB) in memory, not 320 MB.
struct KPIColumns {
    private var buffers: [[Double]]
    private var buffered = 0
    /// Each column's spilled blocks: where in the file, and how many values.
    private var blocks: [[(offset: Int, count: Int)]]
    private var spool: SpoolFile?
    private var spooled = 0
    private var failed = false
    /// False keeps everything in memory (a library caller's writer, which cannot fail).
    private let spills: Bool
    /// Values held before a spill: 4 MiB.
    static let inMemory = 1 << 19

    init(count: Int, spills: Bool) {
        self.spills = spills
        buffers = Array(repeating: [], count: count)
        blocks = Array(repeating: [], count: count)
    }

    mutating func append(_ value: Double, to column: Int) {
        buffers[column].append(value)
        buffered += 1
        if spills, buffered >= Self.inMemory { spill() }
    }

    /// Every value of a column, in the order they were added.
    func values(_ column: Int) throws(OutputError) -> [Double] {
        var out: [Double] = []
        out.reserveCapacity(blocks[column].reduce(0) { $0 + $1.count } + buffers[column].count)
        if let spool {
            for block in blocks[column] {
                var bytes = [UInt8](repeating: 0, count: block.count * 8)
                try spool.read(into: &bytes, at: block.offset)
                for n in 0..<block.count {
                    var bits: UInt64 = 0
                    for b in 0..<8 { bits |= UInt64(bytes[n * 8 + b]) << UInt64(8 * b) }
                    out.append(Double(bitPattern: bits))
                }
            }
        }
        out.append(contentsOf: buffers[column])
        return out
    }

    /// How many values each column holds: a mark to go back to (`truncate`).
    var counts: [Int] {
        buffers.indices.map { column in blocks[column].reduce(0) { $0 + $1.count } + buffers[column].count }
    }

    /// Drops the values added after `counts` was taken (a session that turned out bad).
    mutating func truncate(to counts: [Int]) {
        for (column, keep) in counts.enumerated() {
            var excess = blocks[column].reduce(0) { $0 + $1.count } + buffers[column].count - keep
            let fromBuffer = min(excess, buffers[column].count)
            buffers[column].removeLast(fromBuffer)
            buffered -= fromBuffer
            excess -= fromBuffer
            // Spilled values are dropped by forgetting them: the file only grows.
            while excess > 0, let last = blocks[column].last {
                let drop = min(excess, last.count)
                blocks[column][blocks[column].count - 1].count -= drop
                if blocks[column][blocks[column].count - 1].count == 0 { blocks[column].removeLast() }
                excess -= drop
            }
        }
    }

    /// Writes every buffered value to the spool file (little-endian doubles, a block per column).
    /// Without a temporary directory the values stay in memory: slower to lose than to refuse.
    private mutating func spill() {
        guard !failed else { return }
        do {
            let spool = try self.spool ?? SpoolFile()
            self.spool = spool
            for column in buffers.indices where !buffers[column].isEmpty {
                var bytes: [UInt8] = []
                bytes.reserveCapacity(buffers[column].count * 8)
                for value in buffers[column] {
                    let bits = value.bitPattern
                    for b in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: bits >> UInt64(8 * b))) }
                }
                try spool.write(bytes)
                blocks[column].append((spooled, buffers[column].count))
                spooled += bytes.count
                buffers[column] = []
            }
            buffered = 0
        } catch {
            failed = true
        }
    }
}
