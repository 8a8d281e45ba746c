/// An event's attributes: a small map kept as one array. Events carry ~30 attributes; at that
/// size a linear scan over interned integer keys beats hashing, and one allocation per event
/// beats a hash table's. Equality ignores order.
///
/// Entries are plain bits: a string value lives in a side array and its entry holds the index.
/// Most values are integers and booleans, and an event's map is emptied after every delivery
/// (or dropped, when the hub refuses the event); with strings inside the entries, either one
/// destroyed every entry one at a time through the runtime.
public struct AttributeMap: Sequence, Equatable, Sendable, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// One attribute and its value.
    public typealias Element = (key: Attribute, value: AttributeValue)

    /// A value as an entry keeps it: a string is its index in the map's strings.
    @usableFromInline package enum StoredValue: Sendable {
        case int(Int)
        case double(Double)
        case bool(Bool)
        case string(Int)
    }

    /// One attribute and its value, as stored (see `withUnsafeStorage`).
    @usableFromInline package struct Entry: Sendable {
        @usableFromInline package let key: Attribute
        @usableFromInline package var stored: StoredValue

        @inlinable
        init(key: Attribute, stored: StoredValue) {
            self.key = key
            self.stored = stored
        }
    }

    @usableFromInline var entries: [Entry] = []
    /// The string values, each referred to by exactly one entry.
    @usableFromInline var strings: [String] = []
    /// One bit per key index modulo 64, set for every key ever added: a clear bit proves a key
    /// absent without scanning, which is the common case when an event is being built.
    @usableFromInline var presence: UInt64 = 0

    /// An empty map.
    public init() {}

    /// An empty map with room for `minimumCapacity` entries.
    public init(minimumCapacity: Int) { reserveCapacity(minimumCapacity) }

    /// A map of these entries; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (Attribute, AttributeValue)...) {
        for (key, value) in elements { self[key] = value }
    }

    /// A map of the dictionary's entries.
    public init(_ dictionary: [Attribute: AttributeValue]) {
        entries.reserveCapacity(dictionary.count)
        for (key, value) in dictionary { self[key] = value }
    }

    /// The number of attributes.
    public var count: Int { entries.count }
    /// Whether the map has no attributes.
    public var isEmpty: Bool { entries.isEmpty }
    /// The attributes in the order they were first set.
    public var keys: [Attribute] { entries.map(\.key) }

    @inlinable @inline(__always)
    func mayContain(_ key: Attribute) -> Bool {
        presence & (1 << UInt64(UInt32(bitPattern: key.index) & 63)) != 0
    }

    @inlinable @inline(__always)
    mutating func markPresent(_ key: Attribute) {
        presence |= 1 << UInt64(UInt32(bitPattern: key.index) & 63)
    }

    @inlinable
    func position(of key: Attribute) -> Int? {
        guard mayContain(key) else { return nil }
        // A plain loop over the keys' integer indexes, without per-element bounds checks: this
        // runs ~30 times per event. Safe: `i` stays below the buffer's own count.
        return entries.withUnsafeBufferPointer { (buffer) -> Int? in
            let wanted = key.index
            var i = 0
            while i < buffer.count {
                if buffer[i].key.index == wanted { return i }
                i += 1
            }
            return nil
        }
    }

    @inlinable
    func value(of stored: StoredValue) -> AttributeValue {
        switch stored {
        case .int(let v): return .int(v)
        case .double(let v): return .double(v)
        case .bool(let v): return .bool(v)
        case .string(let i): return .string(strings[i])
        }
    }

    /// Reading gives the value or nil; writing nil removes the attribute (as on a Dictionary).
    @inlinable
    public subscript(key: Attribute) -> AttributeValue? {
        get { position(of: key).map { value(of: entries[$0].stored) } }
        set {
            if let index = position(of: key) {
                if let newValue { replace(at: index, with: newValue) } else { remove(at: index) }
            } else if let newValue {
                appendAbsent(key, consume newValue)
            }
        }
    }

    /// `self[key] = value`, inlined for the common case of a key not yet present: the hub's
    /// stamps and the getters' values, a dozen each per event.
    @inlinable @inline(__always)
    mutating func set(_ key: Attribute, _ value: consuming AttributeValue) {
        if mayContain(key) {
            self[key] = value
        } else {
            appendAbsent(key, value)
        }
    }

    /// Sets every pair in order, as `self[key] = value` for each. Many pairs at once look their
    /// keys up in a table built once: one by one, each lookup scans the map, and a step with
    /// 10^5 attributes would take quadratic time.
    public mutating func merge(_ pairs: [(attribute: Attribute, value: AttributeValue)]) {
        guard pairs.count > 32 else {
            for (key, value) in pairs { self[key] = value }
            return
        }
        var positions: [Int32: Int] = [:]
        positions.reserveCapacity(entries.count + pairs.count)
        for (i, entry) in entries.enumerated() { positions[entry.key.index] = i }
        for (key, value) in pairs {
            if let index = positions[key.index] {
                replace(at: index, with: value)
            } else {
                positions[key.index] = entries.count
                appendAbsent(key, value)
            }
        }
    }

    /// Where the attributes of a map were when it was made: for setting many keys that differ
    /// from one another (a tracker's getters), each of which can only be one of these.
    package struct Lookup {
        /// The entries looked up are the map's first `count`.
        let count: Int
        /// Their positions by key index, when there are too many to scan.
        let positions: [Int32: Int]?

        init(_ map: AttributeMap) {
            count = map.count
            guard count > 16 else {
                positions = nil
                return
            }
            var positions: [Int32: Int] = [:]
            positions.reserveCapacity(count)
            for (i, entry) in map.entries.enumerated() { positions[entry.key.index] = i }
            self.positions = positions
        }
    }

    /// `self[key] = value` for a key that is either among the entries `earlier` was made of or
    /// not in the map at all: it is looked up among those alone, so setting n such keys costs n,
    /// not n times the map's size.
    mutating func set(_ key: Attribute, _ value: consuming AttributeValue, among earlier: Lookup) {
        let index: Int?
        if let positions = earlier.positions {
            index = positions[key.index]
        } else {
            index = entries[0..<earlier.count].firstIndex { $0.key.index == key.index }
        }
        if let index {
            replace(at: index, with: value)
        } else {
            entries.append(Entry(key: key, stored: store(value)))
            markPresent(key)
        }
    }

    /// Adds an attribute the caller knows is absent, skipping the lookup (building an event).
    @inlinable @inline(__always)
    mutating func appendAbsent(_ key: Attribute, _ value: consuming AttributeValue) {
        assert(position(of: key) == nil, "\(key.name) is already set")
        entries.append(Entry(key: key, stored: store(value)))
        markPresent(key)
    }

    /// The value as an entry keeps it; a string is appended to `strings`.
    @inlinable @inline(__always)
    mutating func store(_ value: consuming AttributeValue) -> StoredValue {
        switch consume value {
        case .int(let v): return .int(v)
        case .double(let v): return .double(v)
        case .bool(let v): return .bool(v)
        case .string(let s):
            strings.append(s)
            return .string(strings.count - 1)
        }
    }

    @usableFromInline
    mutating func replace(at index: Int, with value: AttributeValue) {
        // A string replacing a string reuses its slot; otherwise the old slot goes first.
        if case .string(let slot) = entries[index].stored {
            if case .string(let s) = value {
                strings[slot] = s
                return
            }
            removeString(at: slot)
        }
        entries[index].stored = store(value)
    }

    @usableFromInline
    mutating func remove(at index: Int) {
        if case .string(let slot) = entries[index].stored { removeString(at: slot) }
        entries.remove(at: index)
    }

    /// Drops a string slot by moving the last string into it (and repointing its entry), so the
    /// strings stay exactly those of the entries however often values come and go.
    @usableFromInline
    mutating func removeString(at slot: Int) {
        let last = strings.count - 1
        if slot != last {
            strings[slot] = strings[last]
            for i in entries.indices {
                if case .string(last) = entries[i].stored {
                    entries[i].stored = .string(slot)
                    break
                }
            }
        }
        strings.removeLast()
    }

    /// Removes the attribute and returns its value, or nil if it was absent.
    @discardableResult
    public mutating func removeValue(forKey key: Attribute) -> AttributeValue? {
        guard let index = position(of: key) else { return nil }
        let old = value(of: entries[index].stored)
        remove(at: index)
        return old
    }

    /// Room for `capacity` entries (and their share of strings) without growing.
    public mutating func reserveCapacity(_ capacity: Int) {
        entries.reserveCapacity(capacity)
        strings.reserveCapacity(capacity / 4)
    }

    /// Empties the map; with `keepingCapacity`, its storage stays for the next event.
    public mutating func removeAll(keepingCapacity: Bool = false) {
        entries.removeAll(keepingCapacity: keepingCapacity)
        strings.removeAll(keepingCapacity: keepingCapacity)
        presence = 0
    }

    /// Entries in the order they were first set.
    public func makeIterator() -> AnyIterator<Element> {
        var i = 0
        return AnyIterator {
            guard i < entries.count else { return nil }
            defer { i += 1 }
            return (entries[i].key, value(of: entries[i].stored))
        }
    }

    /// Calls `body` for each entry without building tuples or an iterator box (hot path of encoders).
    @inlinable
    public func forEachEntry(_ body: (Attribute, AttributeValue) throws -> Void) rethrows {
        for entry in entries { try body(entry.key, value(of: entry.stored)) }
    }

    /// The entries in first-set order and the strings they refer to, read in place: encoders
    /// walk every attribute of every event, and this neither copies values nor builds tuples.
    /// For this package's encoders only: the buffers are valid inside `body` alone, and an
    /// entry's `.string(i)` is an index into the second buffer.
    @inlinable
    package func withUnsafeStorage<R>(_ body: (UnsafeBufferPointer<Entry>, UnsafeBufferPointer<String>) throws -> R)
        rethrows -> R
    {
        try entries.withUnsafeBufferPointer { entries in try strings.withUnsafeBufferPointer { try body(entries, $0) } }
    }

    /// The entry at a position in first-set order (0..<count).
    @inlinable
    public func entry(at position: Int) -> Element {
        (entries[position].key, value(of: entries[position].stored))
    }

    /// The map as a dictionary.
    public var dictionary: [Attribute: AttributeValue] {
        Dictionary(entries.map { ($0.key, value(of: $0.stored)) }, uniquingKeysWith: { $1 })
    }

    /// Whether both maps hold the same attributes with equal values, in any order.
    public static func == (lhs: AttributeMap, rhs: AttributeMap) -> Bool {
        lhs.count == rhs.count && lhs.entries.allSatisfy { rhs[$0.key] == lhs.value(of: $0.stored) }
    }

    /// The entries as `name: value`, sorted, in brackets.
    public var description: String {
        "[" + entries.map { "\($0.key.name): \(value(of: $0.stored))" }.sorted().joined(separator: ", ") + "]"
    }
}
