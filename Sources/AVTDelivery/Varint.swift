/// Base-128 varints (LEB128), as snappy writes its length preamble and protobuf its integers.
enum Varint {
    /// `value` written at `dst`, which has room for 10 bytes; returns the bytes written.
    static func put(_ value: UInt64, _ dst: UnsafeMutablePointer<UInt8>) -> Int {
        var v = value
        var op = 0
        while v >= 0x80 {
            dst[op] = UInt8(v & 0x7F) | 0x80
            v >>= 7
            op += 1
        }
        dst[op] = UInt8(v)
        return op + 1
    }

    /// `value` appended to `out`.
    static func append(_ value: UInt64, to out: inout [UInt8]) {
        var v = value
        while v >= 0x80 {
            out.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }
}
