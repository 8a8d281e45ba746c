import AVTOutput

/// Text for a few lines that grow side by side and are read back one line after the other: a
/// session's table, whose every row has a cell per playback, written a playback at a time. Up
/// to `inMemory` bytes are held in memory; past that each line's bytes so far go to a temporary
/// file (unlinked at once) as a block, and only where each block lies is kept. So a session of
/// 10^5 playbacks costs its table in a file, not in memory.
final class LineSpool {
    private var buffers: [[UInt8]]
    private var buffered = 0
    private var blocks: [[(offset: Int, count: Int)]]
    private var spool: SpoolFile?
    private var spooled = 0
    /// Bytes held before a spill: 1 MiB.
    static let inMemory = 1 << 20

    init(lines: Int) {
        buffers = Array(repeating: [], count: lines)
        blocks = Array(repeating: [], count: lines)
    }

    func append(_ text: String, to line: Int) throws(OutputError) {
        buffers[line].append(contentsOf: text.utf8)
        buffered += text.utf8.count
        if buffered >= Self.inMemory { try spill() }
    }

    /// Appends what `body` writes to the line's bytes (a table cell, with no String of its own).
    func append(to line: Int, _ body: (inout [UInt8]) -> Void) throws(OutputError) {
        let before = buffers[line].count
        body(&buffers[line])
        buffered += buffers[line].count - before
        if buffered >= Self.inMemory { try spill() }
    }

    /// The line's bytes in order, handed to `body` a block at a time.
    func forEachChunk(_ line: Int, _ body: ([UInt8]) throws -> Void) throws {
        if let spool {
            for block in blocks[line] {
                var bytes = [UInt8](repeating: 0, count: block.count)
                try spool.read(into: &bytes, at: block.offset)
                try body(bytes)
            }
        }
        try body(buffers[line])
    }

    private func spill() throws(OutputError) {
        let spool: SpoolFile
        if let existing = self.spool {
            spool = existing
        } else {
            spool = try SpoolFile()
            self.spool = spool
        }
        for line in buffers.indices where !buffers[line].isEmpty {
            try spool.write(buffers[line])
            blocks[line].append((spooled, buffers[line].count))
            spooled += buffers[line].count
            buffers[line].removeAll(keepingCapacity: true)
        }
        buffered = 0
    }
}
