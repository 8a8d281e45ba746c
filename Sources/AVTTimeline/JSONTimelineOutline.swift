import AVTJSON

/// The top level of a JSON timeline read through a `JSONDocumentCursor`: the root object's
/// members in order, `steps` standing as an empty array at its place, so that
/// `TimelineDecoder.decodeRoot` checks them exactly as it checks a whole document. Punctuation
/// errors are those of `JSONParser` at the same place.
struct JSONTimelineOutline {
    /// Where the root object starts.
    private(set) var root = SourceLocation(line: 1, column: 1)
    private(set) var members: [JSONMember] = []
    /// How many members come before `steps`, once it is found.
    private(set) var beforeSteps: Int?

    /// What `readMembers` stopped at.
    enum Stop {
        /// The `[` of `steps`, not consumed.
        case steps
        /// The end of the document.
        case end
    }

    /// The root as `TimelineDecoder.decodeRoot` takes it.
    var node: JSONNode { JSONNode(.object(members), at: root) }

    /// Reads up to the root's `{` and past it; false when the document does not start with one
    /// (the whole-document decoder then says what it is).
    mutating func open(_ c: inout JSONDocumentCursor) throws(TimelineError) -> Bool {
        try c.skipByteOrderMark()
        try c.skipWhitespace()
        guard try c.peek() == UInt8(ascii: "{") else { return false }
        root = c.location
        c.take()
        return true
    }

    /// Reads members until the root object closes and the document ends, or until the array of
    /// `steps` when `stopAtSteps`. `first`: the cursor is just past the `{`, not past a member.
    /// `skipSteps`: an array of steps is moved over rather than parsed.
    mutating func readMembers(_ c: inout JSONDocumentCursor, first: Bool, stopAtSteps: Bool, skipSteps: Bool)
        throws(TimelineError) -> Stop
    {
        var first = first
        while true {
            try c.skipWhitespace()
            guard let next = try c.peek() else { throw c.error("unexpected end of input inside an object") }
            if first {
                first = false
                if next == UInt8(ascii: "}") {
                    c.take()
                    return try close(&c)
                }
                try readKey(&c, afterComma: false)
            } else if next == UInt8(ascii: ",") {
                c.take()
                try readKey(&c, afterComma: true)
            } else if next == UInt8(ascii: "}") {
                c.take()
                return try close(&c)
            } else {
                throw c.error("expected ',' or '}' after an object member, found \(try c.found())")
            }
            try c.skipWhitespace()
            guard let start = try c.peek() else { throw c.error("unexpected end of input inside an object") }
            let key = members[members.count - 1].key
            if key == "steps", start == UInt8(ascii: "["), beforeSteps == nil || skipSteps {
                members[members.count - 1].node = JSONNode(.array([]), at: c.location)
                if beforeSteps == nil { beforeSteps = members.count - 1 }
                if stopAtSteps { return .steps }
                if skipSteps {
                    try c.skipValue()
                    continue
                }
            }
            members[members.count - 1].node = try c.value(depth: 1)
        }
    }

    /// `"key" :`, the member added with a placeholder value.
    private mutating func readKey(_ c: inout JSONDocumentCursor, afterComma: Bool) throws(TimelineError) {
        try c.skipWhitespace()
        guard let quote = try c.peek() else { throw c.error("unexpected end of input inside an object") }
        guard quote == UInt8(ascii: "\"") else {
            let trailingComma = afterComma && quote == UInt8(ascii: "}")
            throw c.error(
                "expected a string key, found \(try c.found())"
                    + (trailingComma ? " (trailing commas are not allowed)" : ""))
        }
        guard case .string(let key) = try c.value(depth: 1).value else {
            preconditionFailure("a value that starts with a quote is a string")
        }
        try c.skipWhitespace()
        guard let colon = try c.peek() else { throw c.error("unexpected end of input inside an object") }
        guard colon == UInt8(ascii: ":") else {
            throw c.error("expected ':' after an object key, found \(try c.found())")
        }
        c.take()
        members.append(JSONMember(key: key, node: JSONNode(.null, at: c.location)))
    }

    /// After the root's `}`: only white space may follow.
    private func close(_ c: inout JSONDocumentCursor) throws(TimelineError) -> Stop {
        try c.skipWhitespace()
        guard try c.peek() == nil else {
            throw c.error("unexpected content after the JSON value, found \(try c.found())")
        }
        return .end
    }
}
