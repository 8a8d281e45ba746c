import AVTOutput
import Foundation

/// Prometheus remote write 1.0's body: a protobuf `WriteRequest` (prometheus/prompb/remote.proto
/// and types.proto), snappy-compressed. Written by hand because only four messages are needed:
///
///     WriteRequest { repeated TimeSeries timeseries = 1; }
///     TimeSeries   { repeated Label labels = 1; repeated Sample samples = 2; }
///     Label        { string name = 1; string value = 2; }
///     Sample       { double value = 1; int64 timestamp = 2; }   // timestamp in ms
///
/// Series are sorted by their label sets and labels by name, samples by time (equal times in
/// the order given), as the protocol asks of senders.
///
/// Every sample a run sends passes through here, so the samples are grouped by a counting sort
/// on their series' group numbers (no hashing per sample), each series' labels are copied as
/// the bytes `RemoteWriteSeriesTable` encoded once, and the request is written through a raw
/// pointer into a buffer sized beforehand. The buffers are kept for the next batch (a sender
/// queue keeps its encoder in a `Box`). A value type, so that its buffers are plain local
/// storage in the loops, without the exclusivity checks of a class's properties.
struct RemoteWriteEncoder {
    /// A sender queue's encoder, reused batch after batch; only that queue touches it.
    final class Box: @unchecked Sendable {
        var encoder = RemoteWriteEncoder()
    }

    /// Samples per group of the batch being written; all 0 between calls.
    private var counts: [Int32] = []
    /// Each group's next place in `placed` while placing.
    private var cursors: [Int32] = []
    /// The groups of the batch, sorted.
    private var present: [Int32] = []
    /// The samples grouped: each group's together, in `present`'s order.
    private var placed: [PrometheusSample] = []
    private var protobuf: [UInt8] = []
    private var compressed: [UInt8] = []
    private var table: [UInt16] = []

    /// The compressed request of `samples`, whose series are `series`' (each readable).
    mutating func body(_ samples: ArraySlice<PrometheusSample>, series: RemoteWriteSeriesTable) -> Data {
        let count = write(samples, series: series)
        let size = protobuf.withUnsafeBytes { request in
            Snappy.compress(UnsafeRawBufferPointer(rebasing: request[0..<count]), into: &compressed, table: &table)
        }
        return compressed.withUnsafeBytes { Data($0[0..<size]) }
    }

    /// The protobuf bytes of `samples`' request, uncompressed.
    mutating func request(_ samples: ArraySlice<PrometheusSample>, series: RemoteWriteSeriesTable) -> [UInt8] {
        Array(protobuf[0..<write(samples, series: series)])
    }

    /// Writes the request into `protobuf`; its length.
    private mutating func write(_ samples: ArraySlice<PrometheusSample>, series: RemoteWriteSeriesTable) -> Int {
        group(samples, series: series)
        // Bound: per series its tag, a length of up to 5 bytes and its labels; per sample its
        // tag, length, value (9 bytes) and timestamp (up to 11).
        var bound = samples.count * 22
        for g in present { bound += 6 + series.groups[Int(g)].encoded.count }
        if protobuf.count < bound { protobuf = [UInt8](repeating: 0, count: bound) }
        var start = 0
        let written = protobuf.withUnsafeMutableBufferPointer { out in
            let base = out.baseAddress!
            var op = 0
            for g in present {
                let labels = series.groups[Int(g)].encoded
                let end = start + Int(counts[Int(g)])
                counts[Int(g)] = 0
                var length = labels.count
                for i in start..<end { length += 12 + Self.varintLength(placed[i].milliseconds) }
                base[op] = 0x0A  // WriteRequest field 1, length-delimited
                op += 1 + Varint.put(UInt64(length), base + op + 1)
                labels.withUnsafeBufferPointer { base.advanced(by: op).update(from: $0.baseAddress!, count: $0.count) }
                op += labels.count
                for i in start..<end {
                    let sample = placed[i]
                    let stamp = UInt64(bitPattern: Int64(sample.milliseconds))
                    base[op] = 0x12  // TimeSeries field 2, length-delimited
                    base[op + 1] = UInt8(10 + Self.varintLength(sample.milliseconds))
                    base[op + 2] = 0x09  // Sample field 1, 64-bit
                    UnsafeMutableRawPointer(base + op + 3).storeBytes(
                        of: sample.value.bitPattern.littleEndian, as: UInt64.self)
                    base[op + 11] = 0x10  // Sample field 2, varint; a negative int64 takes ten bytes
                    op += 12 + Varint.put(stamp, base + op + 12)
                }
                start = end
                precondition(op <= out.count, "remote-write request over its bound")
            }
            return op
        }
        return written
    }

    /// Sorts `samples` into `placed` by group, the groups in label order and each group's
    /// samples by time; leaves each group's count in `counts` and the groups in `present`.
    private mutating func group(_ samples: ArraySlice<PrometheusSample>, series: RemoteWriteSeriesTable) {
        if counts.count < series.groups.count {
            counts += [Int32](repeating: 0, count: series.groups.count - counts.count)
            cursors = counts
        }
        present.removeAll(keepingCapacity: true)
        for sample in samples {
            let g = Int(series.groupOf[Int(sample.series)])
            if counts[g] == 0 { present.append(Int32(g)) }
            counts[g] += 1
        }
        present.sort { series.ranks[Int($0)] < series.ranks[Int($1)] }
        // Each group's first place, then placed in the order given: equal times keep it.
        var offset: Int32 = 0
        for g in present {
            cursors[Int(g)] = offset
            offset += counts[Int(g)]
        }
        placed.removeAll(keepingCapacity: true)
        placed.append(
            contentsOf: repeatElement(PrometheusSample(series: 0, value: 0, milliseconds: 0), count: samples.count))
        for sample in samples {
            let g = Int(series.groupOf[Int(sample.series)])
            placed[Int(cursors[g])] = sample
            cursors[g] += 1
        }
        var start = 0
        for g in present {
            let end = start + Int(counts[Int(g)])
            if !placed[start..<end].isSorted(by: \.milliseconds) {
                // Stable: equal times stay in the order given.
                let sorted = placed[start..<end].enumerated().sorted {
                    ($0.element.milliseconds, $0.offset) < ($1.element.milliseconds, $1.offset)
                }.map(\.element)
                placed.replaceSubrange(start..<end, with: sorted)
            }
            start = end
        }
    }

    private static func varintLength(_ milliseconds: Int) -> Int {
        let v = UInt64(bitPattern: Int64(milliseconds))
        return v == 0 ? 1 : (64 - v.leadingZeroBitCount + 6) / 7
    }
}

extension ArraySlice {
    fileprivate func isSorted(by key: (Element) -> Int) -> Bool {
        var i = startIndex
        while i + 1 < endIndex {
            if key(self[i + 1]) < key(self[i]) { return false }
            i += 1
        }
        return true
    }
}
