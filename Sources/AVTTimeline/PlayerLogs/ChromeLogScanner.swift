import AVTJSON

/// A tolerant, streaming reader of media-internals JSON (the "Save Log" array of players, one
/// copied player, or the raw players map): it yields each `{"time", "key", "value"}` entry and
/// each start of a player's event list, without holding the document. Pastes are cut mid-JSON,
/// so it never needs the document to close: it tracks strings and nesting byte by byte, and
/// notes where each small object closes; it is parsed only when `next()` hands it out, so a
/// reader that needs no entries for a while (`skipsEntries`) pays for the scan alone. Objects
/// larger than `captureLimit` (a player, the array) are not kept: memory stays bounded by that
/// limit and one chunk.
package struct ChromeLogScanner {
    package enum Item: Equatable {
        /// An `"events"` / `"allEvents"` member opens: the entries that follow are a new player's.
        case player
        /// One entry: ms since the player's first entry, its key and value, and its line.
        case entry(time: Double, key: ChromeEntryKey, value: JSONValue, line: Int)
        /// A player's `"properties"` object (each property's last value): it comes before the
        /// player's event list.
        case properties(JSONValue, line: Int)
    }

    /// A closed object waiting to be handed out.
    private enum Pending {
        case player
        /// An object inside the current chunk: `chunk[range]`, valid until the next read.
        case inChunk(Range<Int>, line: Int, isProperties: Bool)
        /// An object begun in an earlier chunk, copied out of `kept`.
        case copied([UInt8], line: Int, isProperties: Bool)
    }

    static let captureLimit = 1 << 20

    /// While set, `next()` passes over entries without parsing them and returns only player
    /// starts (and nil at the end): for a first pass that counts players.
    package var skipsEntries = false
    /// While set, an entry's value is only what the reader reads of it (`ChromeEntryKey.reduced`),
    /// and what it does not read is checked, not built.
    package var reducesValues = false

    private let input: ByteInput
    private var chunk: [UInt8]
    private var chunkEnd = 0
    private var position = 0
    private var atEOF = false
    /// Bytes of the open objects still captured, from absolute offset `keptFrom`.
    private var kept: [UInt8] = []
    private var keptFrom = 0
    /// The absolute offset up to which the chunk's bytes were copied into `kept`.
    private var copiedUpTo = 0
    /// The absolute offset of `chunk[0]`.
    private var chunkBase = 0
    /// Open objects: absolute start, start line, whether still captured, and whether it is a
    /// player's properties.
    private var open: [(start: Int, line: Int, captured: Bool, isProperties: Bool)] = []
    private var capturedCount = 0
    private var depth = 0
    /// The depth of a player's entries: inside its `"events": [`.
    private var entryDepth: Int?
    /// An `"events"` key was just read: the next `[` is the entries' array.
    private var eventsKey = false
    /// A `"properties"` key was just read: the next `{` is a player's properties.
    private var propertiesKey = false
    private var inString = false
    private var escaped = false
    /// The string being read, as (length, FNV-1a hash), when it is read byte by byte (it holds
    /// an escape or crosses a chunk): hashing allocates nothing per byte.
    private var stringHash: (length: Int, hash: UInt64) = (0, 0)
    /// The last string closed, when it was a name `scan` looks for and nothing followed it yet.
    private var lastString = Name.none
    private var line = 1
    private var ready: [Pending] = []
    private var readyHead = 0
    /// Whether the input ended inside an object or array (a cut paste).
    package private(set) var endedInside = false
    /// Whether the input began inside the log (a paste from its middle): it closed an object or
    /// array it never opened, or held entries before any player's event list.
    package private(set) var startedInside = false
    private var sawPlayer = false

    /// What a closed string was, of what `scan` looks for.
    private enum Name {
        case none
        /// `"events"` or `"allEvents"`.
        case events
        case properties
    }

    /// Reads `input` in chunks of `chunkSize` bytes (smaller in tests, to cut entries anywhere).
    /// `fastPaths` off reads every string and every byte between them one by one, as the
    /// reference for the fast paths.
    package init(_ input: ByteInput, chunkSize: Int = 1 << 18, fastPaths: Bool = true) {
        self.input = input
        chunk = [UInt8](repeating: 0, count: max(1, chunkSize))
        self.fastPaths = fastPaths
    }

    private let fastPaths: Bool

    package mutating func next() throws(TimelineError) -> Item? {
        while true {
            while readyHead == ready.count {
                ready.removeAll(keepingCapacity: true)
                readyHead = 0
                if position == chunkEnd {
                    if atEOF { return nil }
                    let n = try input.read(into: &chunk, from: 0)
                    if n == 0 {
                        atEOF = true
                        endedInside = depth > 0
                        return nil
                    }
                    chunkBase += chunkEnd
                    chunkEnd = n
                    position = 0
                }
                scanChunk()
            }
            let pending = ready[readyHead]
            readyHead += 1
            switch pending {
            case .player:
                sawPlayer = true
                return .player
            case .inChunk(let range, let line, let isProperties):
                if skipsEntries, !isProperties { continue }
                let reducing = reducesValues
                let item = chunk.withUnsafeBufferPointer {
                    Self.item(
                        UnsafeBufferPointer(rebasing: $0[range]), line: line, isProperties: isProperties,
                        reducing: reducing)
                }
                if let item { return entered(item) }
            case .copied(let bytes, let line, let isProperties):
                if skipsEntries, !isProperties { continue }
                let reducing = reducesValues
                if let item = bytes.withUnsafeBufferPointer({
                    Self.item($0, line: line, isProperties: isProperties, reducing: reducing)
                }) {
                    return entered(item)
                }
            }
        }
    }

    private mutating func entered(_ item: Item) -> Item {
        if !sawPlayer, case .entry = item { startedInside = true }
        return item
    }

    /// Scans the rest of the chunk, keeping the bytes of captured objects.
    private mutating func scanChunk() {
        // A local reference: reading the stored array byte by byte retained it each time.
        let local = chunk
        local.withUnsafeBufferPointer { scan($0) }
        if capturedCount > 0 {
            copy(upTo: chunkEnd)
        } else {
            copiedUpTo = chunkBase + chunkEnd
        }
        position = chunkEnd
        trim()
    }

    /// The scan proper, over the chunk's bytes (`chunk` itself, which stays until the next read).
    private mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) {
        let end = min(chunkEnd, bytes.count)
        var i = position
        while i < end {
            if inString {
                i = scanString(bytes, from: i, to: end)
                continue
            }
            let b = bytes[i]
            switch b {
            case 0x22:
                // Most strings close in the chunk without an escape: found at once and, when as
                // long as a name looked for, compared with it. Any other string (an escape, the
                // chunk's end) is read again byte by byte from its start.
                if fastPaths {
                    let stop = Self.plainRunEnd(bytes, from: i + 1, to: end)
                    if stop < end, bytes[stop] == 0x22 {
                        lastString = Self.name(UnsafeBufferPointer(rebasing: bytes[(i + 1)..<stop]))
                        i = stop + 1
                        continue
                    }
                }
                inString = true
                stringHash = (0, Self.fnvOffset)
                lastString = .none
            case 0x0A:
                line += 1
            case 0x3A:
                // A member name just closed: `"events": [` starts a player's entries.
                if lastString == .events {
                    ready.append(.player)
                    eventsKey = true
                }
                propertiesKey = lastString == .properties
                lastString = .none
                if fastPaths, !eventsKey, !propertiesKey {
                    i = Self.neutralRunEnd(bytes, from: i + 1, to: end)
                    continue
                }
            case 0x7B:
                depth += 1
                eventsKey = false
                let isProperties = propertiesKey
                propertiesKey = false
                // Only the entries are parsed (not the objects inside their values), once the
                // events array is known; before that (a paste cut at the top), every object.
                // A player's properties are kept too.
                let entry = isProperties || (entryDepth.map { $0 == depth } ?? true)
                if entry, capturedCount == 0 {
                    // The first captured object: keep from here.
                    kept.removeAll(keepingCapacity: true)
                    keptFrom = chunkBase + i
                    copiedUpTo = keptFrom
                }
                open.append((chunkBase + i, line, entry, isProperties))
                if entry { capturedCount += 1 }
            case 0x7D:
                if depth == 0 { startedInside = true }
                depth = max(0, depth - 1)
                if let object = open.popLast(), object.captured {
                    capturedCount -= 1
                    if object.start >= chunkBase {
                        // The common case: nothing to copy, the chunk stays until `ready` is empty.
                        ready.append(
                            .inChunk(
                                object.start - chunkBase..<i + 1, line: object.line, isProperties: object.isProperties))
                    } else {
                        copy(upTo: i + 1)
                        let start = object.start - keptFrom
                        if start >= 0, start < kept.count {
                            ready.append(
                                .copied(Array(kept[start...]), line: object.line, isProperties: object.isProperties))
                        }
                    }
                }
                lastString = .none
            case 0x5B:
                depth += 1
                if eventsKey { entryDepth = depth + 1 }
                (eventsKey, propertiesKey) = (false, false)
                lastString = .none
            case 0x5D:
                if depth == 0 { startedInside = true }
                depth = max(0, depth - 1)
                lastString = .none
            case 0x20, 0x09, 0x0D:
                if fastPaths, lastString == .none, !eventsKey, !propertiesKey {
                    i = Self.neutralRunEnd(bytes, from: i + 1, to: end)
                    continue
                }
            default:
                lastString = .none
                (eventsKey, propertiesKey) = (false, false)
                i = fastPaths ? Self.neutralRunEnd(bytes, from: i + 1, to: end) : i + 1
                continue
            }
            i += 1
        }
    }

    /// Reads string bytes from `start` up to its closing quote, the end of its line or `end`;
    /// returns where the scan goes on. Only a string's length and the hash of its first bytes
    /// matter (the names looked for are short), so a long value costs a compare per byte.
    private mutating func scanString(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
        var (length, hash) = stringHash
        var i = start
        defer { stringHash = (length, hash) }
        while i < end {
            if !escaped {
                // A run of plain bytes, then its first bytes hashed at once.
                let run = i
                while i < end, !Self.endsRun(bytes[i]) { i += 1 }
                if length < Self.hashedPrefix {
                    for b in bytes[run..<min(i, run + Self.hashedPrefix - length)] {
                        hash = (hash ^ UInt64(b)) &* Self.fnvPrime
                    }
                }
                length &+= i - run
                guard i < end else { break }
            }
            let b = bytes[i]
            i += 1
            if b == 0x0A {
                // JSON strings hold no raw newline: a quote in prose around a paste (or a
                // string cut by the paste) ends at its line, so the entries after it read.
                (inString, escaped, lastString) = (false, false, .none)
                line += 1
                return i
            }
            if escaped {
                escaped = false
            } else if b == 0x5C {
                escaped = true
            } else if b == 0x22 {
                inString = false
                lastString = Self.name(length: length, hash: hash)
                return i
            } else {
                // Past `hashedPrefix` bytes only the length counts: no name looked for is as long.
                if length < Self.hashedPrefix { hash = (hash ^ UInt64(b)) &* Self.fnvPrime }
                length &+= 1
            }
        }
        return i
    }

    /// The index of the first quote, backslash or newline in `bytes[start..<end]`, or `end`:
    /// eight bytes at a time (a byte equal to one of them is a zero byte of the word xor-ed
    /// with it; the lowest flagged byte is exact).
    @inline(__always)
    static func plainRunEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
        // Clamped, so no range handed in can make the word loads read past the bytes.
        let end = Swift.min(end, bytes.count)
        guard let base = bytes.baseAddress, start >= 0 else { return end }
        var i = start
        let raw = UnsafeRawPointer(base)
        while i &+ 8 <= end {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            let flags =
                zeroBytes(word ^ 0x2222_2222_2222_2222) | zeroBytes(word ^ 0x5C5C_5C5C_5C5C_5C5C)
                | zeroBytes(word ^ 0x0A0A_0A0A_0A0A_0A0A)
            if flags != 0 { return i &+ flags.trailingZeroBitCount &>> 3 }
            i &+= 8
        }
        while i < end, !endsRun(base[i]) { i &+= 1 }
        return i
    }

    /// The high bit of each byte of `word` that is zero, exact up to the first one (a borrow
    /// may flag bytes above it).
    @inline(__always)
    private static func zeroBytes(_ word: UInt64) -> UInt64 {
        (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
    }

    /// A string's bytes (without escapes), as a name looked for.
    private static func name(_ text: UnsafeBufferPointer<UInt8>) -> Name {
        switch text.count {
        case 6: return matches(text, "events") ? .events : .none
        case 9: return matches(text, "allEvents") ? .events : .none
        case 10: return matches(text, "properties") ? .properties : .none
        default: return .none
        }
    }

    @inline(__always)
    private static func matches(_ text: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
        let pointer = name.utf8Start
        for offset in 0..<text.count where text[offset] != pointer[offset] { return false }
        return true
    }

    /// A string read byte by byte, by its length and hash.
    private static func name(length: Int, hash: UInt64) -> Name {
        let name = (length: length, hash: hash)
        if name == events || name == allEvents { return .events }
        return name == properties ? .properties : .none
    }

    /// The index of the first quote, newline, bracket or brace in `bytes[start..<end]`, or
    /// `end`. No other byte outside a string changes anything while no name looked for is
    /// pending (`lastString`, `eventsKey` and `propertiesKey` clear): separators, blanks, numbers
    /// and literals are passed over at once.
    @inline(__always)
    private static func neutralRunEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
        var i = start
        while i < end {
            let b = bytes[i]
            // `[` and `]` are `{` and `}` without bit 5.
            if b == 0x22 || b == 0x0A || b | 0x20 == 0x7B || b | 0x20 == 0x7D { return i }
            i &+= 1
        }
        return i
    }

    /// A quote, a backslash or a newline: what ends a string's run of plain bytes.
    @inline(__always)
    private static func endsRun(_ byte: UInt8) -> Bool {
        byte == 0x22 || byte == 0x5C || byte == 0x0A
    }

    /// Longer than every name `scan` looks for ("properties").
    private static let hashedPrefix = 16
    private static let fnvPrime: UInt64 = 0x0000_0100_0000_01B3

    private static let fnvOffset: UInt64 = 0xCBF2_9CE4_8422_2325
    private static let events = Array("events".utf8).reduce((0, fnvOffset), hashing)
    private static let allEvents = Array("allEvents".utf8).reduce((0, fnvOffset), hashing)
    private static let properties = Array("properties".utf8).reduce((0, fnvOffset), hashing)

    private static func hashing(_ state: (length: Int, hash: UInt64), _ byte: UInt8) -> (length: Int, hash: UInt64) {
        (state.length &+ 1, (state.hash ^ UInt64(byte)) &* fnvPrime)
    }

    /// Appends the chunk's bytes up to index `end` to `kept`, while an object is captured.
    private mutating func copy(upTo end: Int) {
        let from = copiedUpTo - chunkBase
        guard from >= 0, from < end else {
            copiedUpTo = max(copiedUpTo, chunkBase + end)
            return
        }
        kept.append(contentsOf: chunk[from..<end])
        copiedUpTo = chunkBase + end
    }

    /// Drops what no open captured object needs, and stops capturing objects past the limit.
    private mutating func trim() {
        let end = keptFrom + kept.count
        for index in open.indices where open[index].captured && end - open[index].start > Self.captureLimit {
            open[index].captured = false
            capturedCount -= 1
        }
        guard let first = open.first(where: \.captured) else {
            kept.removeAll(keepingCapacity: true)
            keptFrom = copiedUpTo
            return
        }
        let drop = first.start - keptFrom
        if drop > 0 {
            kept.removeFirst(drop)
            keptFrom = first.start
        }
    }

    /// An object that closed: a player's properties, or an entry when it has `time` and `key`.
    private static func item(
        _ bytes: UnsafeBufferPointer<UInt8>, line: Int, isProperties: Bool, reducing: Bool
    ) -> Item? {
        if !isProperties, let entry = ChromeEntryParser.parse(bytes, line: line, reducing: reducing) {
            return item(entry, line: line)
        }
        return parsedItem(bytes, line: line, isProperties: isProperties, reducing: reducing)
    }

    /// An entry read by `ChromeEntryParser`, as `parsedItem` reads it.
    static func item(_ entry: ChromeEntryParser.Entry, line: Int) -> Item? {
        guard case let key?? = entry.key else { return nil }
        let time: Double
        switch entry.time {
        case .int(let value)?: time = Double(value)
        case .double(let value)?: time = value
        default: return nil
        }
        return .entry(time: time, key: key, value: entry.value ?? .null, line: line)
    }

    /// An object parsed whole by the general parser (a player's properties, an entry of a rare
    /// shape): the reference `ChromeEntryParser` answers as.
    static func parsedItem(
        _ bytes: UnsafeBufferPointer<UInt8>, line: Int, isProperties: Bool, reducing: Bool = false
    ) -> Item? {
        guard let node = try? JSONParser.parse(bytes, firstLine: line), case .object(let members) = node.value
        else { return nil }
        if isProperties { return .properties(node.value, line: line) }
        guard
            let timeNode = members.first(where: { $0.key == "time" })?.node,
            let keyNode = members.first(where: { $0.key == "key" })?.node, case .string(let key) = keyNode.value
        else { return nil }
        let time: Double
        switch timeNode.value {
        case .int(let value): time = Double(value)
        case .double(let value): time = value
        default: return nil
        }
        let value = members.first(where: { $0.key == "value" })?.node.value ?? .null
        let entryKey = ChromeEntryKey(key)
        return .entry(time: time, key: entryKey, value: reducing ? entryKey.reduced(value) : value, line: line)
    }
}
