/// Finds where a JSON value ends without parsing it, so a document can be cut into pieces as it
/// streams in and each piece handed to `JSONParser`, which checks it. Only strings (with their
/// escapes) and nesting are tracked: a container ends at its matching closer, a string at its
/// closing quote, anything else (a number, a literal, a stray byte) before the next white space
/// or punctuation. Nothing is validated: a malformed value ends wherever these rules say, and its
/// parse reports the mistake. A scan resumes across calls as more of the input arrives.
struct JSONValueExtent {
    private enum Kind { case container, string, token }

    private var kind: Kind?
    private var depth = 0
    private var inString = false
    private var escaped = false

    /// Scans `bytes[range]`, which continue the value from its first byte on, counting line ends
    /// into `line` and `lineStart` (the offset of the line's first byte, `base` being the offset
    /// of `bytes[0]` in the document). Returns the offset in `bytes` just past the value once it
    /// ends, nil when it goes on past `range`.
    mutating func scan(
        _ bytes: [UInt8], _ range: Range<Int>, base: Int, line: inout Int, lineStart: inout Int
    ) -> Int? {
        precondition(range.lowerBound >= 0 && range.upperBound <= bytes.count, "scan outside the bytes")
        guard !range.isEmpty else { return nil }
        // Pointers, not array subscripts: this loop runs over every byte of a document's steps,
        // and the checked subscript doubled its cost. Every read is of an index inside `range`.
        return bytes.withUnsafeBufferPointer { all -> Int? in
            Self.classes.withUnsafeBufferPointer { classes -> Int? in
                let p = all.baseAddress!
                var i = range.lowerBound
                if kind == nil { kind = Self.kind(of: p[i]) }
                if kind == .token {
                    // The first byte belongs to the value whatever it is (a stray ',' is the
                    // parser's to name); white space and punctuation after it end it.
                    if depth == 0 {
                        depth = 1
                        i += 1
                    }
                    while i < range.upperBound {
                        if classes[Int(p[i])] & Self.endsToken != 0 { return i }
                        i += 1
                    }
                    return nil
                }
                // A backslash ended the last scan: the byte it escapes starts this one.
                if escaped {
                    escaped = false
                    countLine(p, i)
                    i += 1
                }
                while i < range.upperBound {
                    // Most bytes mean nothing here: they are passed over in a tight loop.
                    if classes[Int(p[i])] & Self.meaningful == 0 {
                        i += 1
                        continue
                    }
                    let byte = p[i]
                    countLine(p, i)
                    if inString {
                        if byte == UInt8(ascii: "\\") {
                            // The escaped byte is skipped with it, whatever it is.
                            if i + 1 == range.upperBound {
                                escaped = true
                            } else {
                                i += 1
                                countLine(p, i)
                            }
                        } else if byte == UInt8(ascii: "\"") {
                            inString = false
                            if depth == 0 { return i + 1 }
                        }
                    } else {
                        switch byte {
                        case UInt8(ascii: "\""): inString = true
                        case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                        case UInt8(ascii: "}"), UInt8(ascii: "]"):
                            depth -= 1
                            if depth == 0 { return i + 1 }
                        default: break
                        }
                    }
                    i += 1
                }
                return nil
            }
        }

        func countLine(_ p: UnsafePointer<UInt8>, _ i: Int) {
            if p[i] == 0x0A {
                line += 1
                lineStart = base + i + 1
            }
        }
    }

    private static func kind(of first: UInt8) -> Kind {
        switch first {
        case UInt8(ascii: "{"), UInt8(ascii: "["): return .container
        case UInt8(ascii: "\""): return .string
        default: return .token
        }
    }

    /// Per byte: `endsToken` for white space and JSON's punctuation; `meaningful` for what a
    /// container or string scan must look at (quotes, backslashes, brackets, line ends).
    private static let endsToken: UInt8 = 1
    private static let meaningful: UInt8 = 2
    private static let classes: [UInt8] = (0..<256).map { byte in
        let byte = UInt8(byte)
        return (Array(" \t\r\n,:[]{}\"".utf8).contains(byte) ? endsToken : 0)
            | (Array("\"\\[]{}\n".utf8).contains(byte) ? meaningful : 0)
    }
}
