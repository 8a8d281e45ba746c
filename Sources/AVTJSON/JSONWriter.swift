/// Appends deterministic JSON text to a byte buffer. Callers write structure themselves
/// (braces, commas, keys) with these primitives; nothing here allocates per call beyond the buffer growth.
///
/// The same input always gives the same bytes: no whitespace, object members in stored order,
/// doubles in Swift's shortest round-trip form. Output records can therefore be compared byte for byte.
public struct JSONWriter {
    public var bytes: [UInt8]

    public init(capacity: Int = 4096) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Appends literal text such as `"{\"type\":"` as is; the caller vouches that it is valid JSON.
    public mutating func raw(_ ascii: StaticString) {
        ascii.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    public mutating func raw(_ byte: UInt8) {
        bytes.append(byte)
    }

    /// Appends `s` quoted, escaping only what JSON requires (plus DEL), so non-ASCII text stays readable.
    public mutating func string(_ s: String) {
        bytes.append(0x22)
        let wroteContiguously: Void? = s.utf8.withContiguousStorageIfAvailable { appendEscaped($0) }
        if wroteContiguously == nil {
            // Bridged or otherwise non-native strings: make a contiguous copy once.
            var copy = s
            copy.withUTF8 { appendEscaped($0) }
        }
        bytes.append(0x22)
    }

    /// Appends the decimal digits of `v`, built right to left in a stack buffer.
    public mutating func int(_ v: Int) {
        if v < 0 { bytes.append(0x2D) }
        // `magnitude` is a UInt, so Int.min needs no special case.
        var remaining = v.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = 0x30 + UInt8(truncatingIfNeeded: remaining % 10)
                remaining /= 10
            } while remaining > 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    /// Appends Swift's shortest round-trip form (`25.0`, `29.97`, `1e-07`, `-0.0`), which is valid
    /// JSON and keeps a double distinguishable from an integer. JSON has no NaN or infinity: they become `null`.
    public mutating func double(_ v: Double) {
        guard v.isFinite else {
            null()
            return
        }
        // Descriptions of up to 15 bytes are small strings, so typical values do not allocate.
        var text = v.description
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    public mutating func bool(_ v: Bool) {
        if v { raw("true") } else { raw("false") }
    }

    public mutating func null() {
        raw("null")
    }

    /// Appends a whole value compactly; object members keep their stored order, duplicates included.
    public mutating func value(_ v: JSONValue) {
        switch v {
        case .null:
            null()
        case .bool(let flag):
            bool(flag)
        case .int(let number):
            int(number)
        case .double(let number):
            double(number)
        case .string(let text):
            string(text)
        case .array(let elements):
            bytes.append(0x5B)
            for (position, element) in elements.enumerated() {
                if position > 0 { bytes.append(0x2C) }
                value(element.value)
            }
            bytes.append(0x5D)
        case .object(let members):
            bytes.append(0x7B)
            for (position, member) in members.enumerated() {
                if position > 0 { bytes.append(0x2C) }
                string(member.key)
                bytes.append(0x3A)
                value(member.node.value)
            }
            bytes.append(0x7D)
        }
    }

    public mutating func removeAll(keepingCapacity: Bool = true) {
        bytes.removeAll(keepingCapacity: keepingCapacity)
    }

    // MARK: Escaping

    /// Copies runs of bytes that need no escape in one append each.
    private mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        for position in 0..<utf8.count {
            let byte = utf8[position]
            guard byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F else { continue }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<position]))
            appendEscape(for: byte)
            runStart = position + 1
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
    }

    private mutating func appendEscape(for byte: UInt8) {
        bytes.append(0x5C)
        switch byte {
        case 0x22: bytes.append(0x22)
        case 0x5C: bytes.append(0x5C)
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
            // \u00XX with lowercase hex, the one spelling for every other control byte.
            let hexDigits: StaticString = "0123456789abcdef"
            raw("u00")
            hexDigits.withUTF8Buffer { digits in
                bytes.append(digits[Int(byte >> 4)])
                bytes.append(digits[Int(byte & 0x0F)])
            }
        }
    }
}
