import Foundation

/// The receiving side of remote write, for the tests: a snappy block decoder and a `WriteRequest`
/// reader, written from the format descriptions (snappy's format_description.txt, prompb's
/// remote.proto and types.proto), not from the encoders.
enum RemoteWriteDecoder {
    struct Failure: Error {}

    struct Series: Equatable {
        var labels: [String]  // name=value, in the order sent
        var samples: [Sample]
    }

    struct Sample: Equatable {
        var value: Double
        var milliseconds: Int64
    }

    static func varint(_ bytes: [UInt8], _ i: inout Int) throws -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard i < bytes.count, shift < 64 else { throw Failure() }
            let byte = bytes[i]
            i += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    static func snappy(_ input: [UInt8]) throws -> [UInt8] {
        var i = 0
        let length = Int(try varint(input, &i))
        var out: [UInt8] = []
        while i < input.count {
            let tag = input[i]
            i += 1
            switch tag & 3 {
            case 0:
                var n = Int(tag >> 2)
                if n >= 60 {
                    let extra = n - 59
                    n = 0
                    for k in 0..<extra { n |= Int(input[i + k]) << (8 * k) }
                    i += extra
                }
                n += 1
                guard i + n <= input.count else { throw Failure() }
                out.append(contentsOf: input[i..<(i + n)])
                i += n
            case 1:
                let n = Int((tag >> 2) & 7) + 4
                let offset = Int(tag >> 5) << 8 | Int(input[i])
                i += 1
                try copy(&out, offset, n)
            case 2:
                let n = Int(tag >> 2) + 1
                let offset = Int(input[i]) | Int(input[i + 1]) << 8
                i += 2
                try copy(&out, offset, n)
            default:
                let n = Int(tag >> 2) + 1
                var offset = 0
                for k in 0..<4 { offset |= Int(input[i + k]) << (8 * k) }
                i += 4
                try copy(&out, offset, n)
            }
        }
        guard out.count == length else { throw Failure() }
        return out
    }

    /// Byte by byte: a copy may overlap what it produces (offset < length).
    private static func copy(_ out: inout [UInt8], _ offset: Int, _ n: Int) throws {
        guard offset > 0, offset <= out.count else { throw Failure() }
        for _ in 0..<n { out.append(out[out.count - offset]) }
    }

    /// The length-delimited fields of one message, as (field number, wire type, bytes or value).
    private static func fields(_ bytes: [UInt8]) throws -> [(Int, [UInt8])] {
        var i = 0
        var fields: [(Int, [UInt8])] = []
        while i < bytes.count {
            let key = try varint(bytes, &i)
            let number = Int(key >> 3)
            switch key & 7 {
            case 0:
                let start = i
                _ = try varint(bytes, &i)
                fields.append((number, Array(bytes[start..<i])))
            case 1:
                fields.append((number, Array(bytes[i..<(i + 8)])))
                i += 8
            case 2:
                let n = Int(try varint(bytes, &i))
                fields.append((number, Array(bytes[i..<(i + n)])))
                i += n
            default: throw Failure()
            }
        }
        return fields
    }

    static func writeRequest(_ bytes: [UInt8]) throws -> [Series] {
        try fields(bytes).filter { $0.0 == 1 }.map { _, series in
            var result = Series(labels: [], samples: [])
            for (number, body) in try fields(series) {
                let parts = try fields(body)
                if number == 1 {
                    let name = String(decoding: parts.first { $0.0 == 1 }?.1 ?? [], as: UTF8.self)
                    let value = String(decoding: parts.first { $0.0 == 2 }?.1 ?? [], as: UTF8.self)
                    result.labels.append(name + "=" + value)
                } else if number == 2 {
                    var bits: UInt64 = 0
                    for (k, byte) in (parts.first { $0.0 == 1 }?.1 ?? []).enumerated() {
                        bits |= UInt64(byte) << (8 * k)
                    }
                    var i = 0
                    let stamp = try parts.first { $0.0 == 2 }.map { try varint($0.1, &i) } ?? 0
                    result.samples.append(
                        Sample(value: Double(bitPattern: bits), milliseconds: Int64(bitPattern: stamp)))
                }
            }
            return result
        }
    }

    /// A request body as posted: snappy, then protobuf.
    static func body(_ data: Data) throws -> [Series] { try writeRequest(try snappy(Array(data))) }
}
