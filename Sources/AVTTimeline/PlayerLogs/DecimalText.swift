/// Plain decimals (`36.000`, `6000000.000`) as Doubles, for the access log's numeric fields.
/// `Double(Substring)` copies the text into a C string and calls strtod for each field; the
/// access log has a dozen numbers per row. Up to 15 significant digits and 22 decimals, the
/// digits are an exact integer and the power of ten an exact Double, so one division rounds
/// once: the result is the correctly rounded value strtod gives (Clinger's fast path).
/// Anything else (signs, exponents, `nan`, longer digits) goes to `Double(_:)`.
enum DecimalText {
    static func double(_ text: Substring) -> Double? {
        exactly(text.utf8) ?? Double(text)
    }

    /// The same on a value's bytes (an ASCII row's): no Substring to make, the same Doubles.
    static func double(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        exactly(bytes) ?? Double(String(decoding: bytes, as: UTF8.self))
    }

    /// The fast path: nil for anything it does not read exactly, which `Double(_:)` then reads.
    /// The power of ten is made by multiplying: each power up to 1e22 is exact, as is each
    /// product on the way (no table to load for every value of every row).
    private static func exactly<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> Double? {
        var mantissa = 0
        var digits = 0
        var point = -1
        for byte in bytes {
            let digit = byte &- 0x30
            if digit < 10 {
                mantissa = mantissa &* 10 &+ Int(digit)
                digits += 1
            } else if byte == 0x2E, point < 0 {
                point = digits
            } else {
                return nil
            }
        }
        let decimals = point < 0 ? 0 : digits - point
        guard digits > 0, digits <= 15, decimals <= 22 else { return nil }
        var power = 1.0
        for _ in 0..<decimals { power *= 10 }
        return Double(mantissa) / power
    }
}
