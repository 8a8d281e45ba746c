@testable import AVTDelivery

/// The reference for `RemoteWriteEncoder`: remote write's body grouped and encoded the plain way,
/// from each sample's labels (as `PrometheusSampleLine` reads them), one array per message. The
/// encoder must write the same bytes for the same samples.
///
/// Prometheus remote write 1.0's body before compression: a protobuf `WriteRequest`
/// (prometheus/prompb/remote.proto and types.proto), written by hand because only four
/// messages are needed:
///
///     WriteRequest { repeated TimeSeries timeseries = 1; }
///     TimeSeries   { repeated Label labels = 1; repeated Sample samples = 2; }
///     Label        { string name = 1; string value = 2; }
///     Sample       { double value = 1; int64 timestamp = 2; }   // timestamp in ms
///
/// Series are sorted by their label sets and labels by name, samples by time, as the protocol
/// asks of senders.
struct RemoteWriteRequest {
    struct Series {
        /// `__name__` included, sorted by name.
        var labels: [(name: String, value: String)]
        var samples: [(value: Double, milliseconds: Int)]
    }

    private(set) var series: [Series] = []

    /// A series' labels as a dictionary key, without copying them into another array (a batch
    /// looks one up per sample).
    private struct Key: Hashable {
        let labels: [(name: String, value: String)]

        static func == (a: Key, b: Key) -> Bool { a.labels.elementsEqual(b.labels) { $0 == $1 } }

        func hash(into hasher: inout Hasher) {
            for label in labels {
                hasher.combine(label.name)
                hasher.combine(label.value)
            }
        }
    }

    /// Groups samples into series: each sample's labels (any order) with its value and time.
    init(_ samples: [(labels: [(name: String, value: String)], value: Double, milliseconds: Int)]) {
        var index: [Key: Int] = [:]
        for sample in samples {
            // Lines come with their labels sorted but for `__name__` first: sorted only if not.
            let inOrder = zip(sample.labels, sample.labels.dropFirst()).allSatisfy {
                $0.name.utf8.lexicographicallyPrecedes($1.name.utf8)
            }
            let labels =
                inOrder ? sample.labels : sample.labels.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
            let key = Key(labels: labels)
            if let i = index[key] {
                series[i].samples.append((sample.value, sample.milliseconds))
            } else {
                index[key] = series.count
                series.append(Series(labels: labels, samples: [(sample.value, sample.milliseconds)]))
            }
        }
        for i in series.indices { series[i].samples.sort { $0.milliseconds < $1.milliseconds } }
        series.sort { Self.precedes($0.labels, $1.labels) }
    }

    /// Label sets in byte order, label by label (name, then value).
    static func precedes(_ a: [(name: String, value: String)], _ b: [(name: String, value: String)]) -> Bool {
        for (x, y) in zip(a, b) {
            if x.name != y.name { return x.name.utf8.lexicographicallyPrecedes(y.name.utf8) }
            if x.value != y.value { return x.value.utf8.lexicographicallyPrecedes(y.value.utf8) }
        }
        return a.count < b.count
    }

    /// The protobuf bytes.
    func encoded() -> [UInt8] {
        var out: [UInt8] = []
        for series in series {
            var body: [UInt8] = []
            for label in series.labels {
                var message: [UInt8] = []
                Self.field(1, string: label.name, to: &message)
                Self.field(2, string: label.value, to: &message)
                Self.field(1, bytes: message, to: &body)
            }
            for sample in series.samples {
                var message: [UInt8] = [0x09]  // field 1, 64-bit
                let bits = sample.value.bitPattern
                for k in 0..<8 { message.append(UInt8(truncatingIfNeeded: bits >> (8 * k))) }
                message.append(0x10)  // field 2, varint; a negative int64 takes ten bytes
                Varint.append(UInt64(bitPattern: Int64(sample.milliseconds)), to: &message)
                Self.field(2, bytes: message, to: &body)
            }
            Self.field(1, bytes: body, to: &out)
        }
        return out
    }

    /// A length-delimited field (wire type 2).
    private static func field(_ number: UInt8, bytes: [UInt8], to out: inout [UInt8]) {
        out.append(number << 3 | 2)
        Varint.append(UInt64(bytes.count), to: &out)
        out.append(contentsOf: bytes)
    }

    private static func field(_ number: UInt8, string: String, to out: inout [UInt8]) {
        field(number, bytes: Array(string.utf8), to: &out)
    }
}
