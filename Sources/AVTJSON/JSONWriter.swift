/// Appends deterministic JSON text to a byte buffer. Callers write structure themselves
/// (braces, commas, keys) with these primitives; nothing here allocates per call beyond the buffer growth.
///
/// The same input always gives the same bytes: no whitespace, object members in stored order,
/// doubles in Swift's shortest round-trip form. Output records can therefore be compared byte for byte.
package struct JSONWriter {
    package var bytes: [UInt8]

    package init(capacity: Int = 4096) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Appends literal text such as `"{\"type\":"` as is; the caller vouches that it is valid JSON.
    package mutating func raw(_ ascii: StaticString) {
        ascii.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    package mutating func raw(_ byte: UInt8) {
        bytes.append(byte)
    }

    /// Appends `s` quoted, escaping only what JSON requires (plus DEL), so non-ASCII text stays readable.
    package mutating func string(_ s: String) {
        var copy = s
        copy.withUTF8 { utf8 in
            withUnsafeTemporaryAllocation(
                of: UInt8.self, capacity: JSONEncoding.maximumStringLength(utf8Count: utf8.count)
            ) {
                let written = JSONEncoding.writeString(utf8, to: $0.baseAddress!)
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: $0[..<written]))
            }
        }
    }

    /// Appends the decimal digits of `v`.
    package mutating func int(_ v: Int) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) {
            let written = JSONEncoding.writeInt(v, to: $0.baseAddress!)
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: $0[..<written]))
        }
    }

    /// Appends Swift's shortest round-trip form (`25.0`, `29.97`, `1e-07`, `-0.0`), which is valid
    /// JSON and keeps a double distinguishable from an integer. JSON has no NaN or infinity: they become `null`.
    package mutating func double(_ v: Double) {
        guard v.isFinite else {
            null()
            return
        }
        // Descriptions of up to 15 bytes are small strings, so typical values do not allocate.
        var text = v.description
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    package mutating func bool(_ v: Bool) {
        if v { raw("true") } else { raw("false") }
    }

    package mutating func null() {
        raw("null")
    }

    /// Appends a whole value compactly; object members keep their stored order, duplicates included.
    package mutating func value(_ v: JSONValue) {
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

    package mutating func removeAll(keepingCapacity: Bool = true) {
        bytes.removeAll(keepingCapacity: keepingCapacity)
    }
}
