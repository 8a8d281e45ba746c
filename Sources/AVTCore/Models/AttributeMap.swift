/// An event's attributes: a small map kept as one array. Events carry ~30 attributes; at that
/// size a linear scan over interned integer keys beats hashing, and one allocation per event
/// beats a hash table's. Equality ignores order.
public struct AttributeMap: Sequence, Equatable, Sendable, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    public typealias Element = (key: Attribute, value: AttributeValue)

    /// One attribute and its value, as stored.
    public struct Entry: Equatable, Sendable {
        public let key: Attribute
        public var value: AttributeValue

        @usableFromInline
        init(key: Attribute, value: AttributeValue) {
            self.key = key
            self.value = value
        }
    }

    @usableFromInline var entries: [Entry] = []
    /// One bit per key index modulo 64, set for every key ever added: a clear bit proves a key
    /// absent without scanning, which is the common case when an event is being built.
    @usableFromInline var presence: UInt64 = 0

    public init() {}

    public init(minimumCapacity: Int) { entries.reserveCapacity(minimumCapacity) }

    public init(dictionaryLiteral elements: (Attribute, AttributeValue)...) {
        for (key, value) in elements { self[key] = value }
    }

    public init(_ dictionary: [Attribute: AttributeValue]) {
        entries.reserveCapacity(dictionary.count)
        for (key, value) in dictionary { self[key] = value }
    }

    public var count: Int { entries.count }
    public var isEmpty: Bool { entries.isEmpty }
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
        // A plain loop over the keys' integer indexes: this runs ~30 times per event.
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

    /// Reading gives the value or nil; writing nil removes the attribute (as on a Dictionary).
    @inlinable
    public subscript(key: Attribute) -> AttributeValue? {
        get { position(of: key).map { entries[$0].value } }
        set {
            if let index = position(of: key) {
                if let newValue { entries[index].value = newValue } else { entries.remove(at: index) }
            } else if let newValue {
                entries.append(Entry(key: key, value: newValue))
                markPresent(key)
            }
        }
    }

    /// Adds an attribute the caller knows is absent, skipping the lookup (building an event).
    @inlinable
    mutating func appendAbsent(_ key: Attribute, _ value: AttributeValue) {
        assert(position(of: key) == nil, "\(key.name) is already set")
        entries.append(Entry(key: key, value: value))
        markPresent(key)
    }

    @discardableResult
    public mutating func removeValue(forKey key: Attribute) -> AttributeValue? {
        guard let index = position(of: key) else { return nil }
        return entries.remove(at: index).value
    }

    public mutating func reserveCapacity(_ capacity: Int) { entries.reserveCapacity(capacity) }

    /// Empties the map; with `keepingCapacity`, its storage stays for the next event.
    public mutating func removeAll(keepingCapacity: Bool = false) {
        entries.removeAll(keepingCapacity: keepingCapacity)
        presence = 0
    }

    /// Entries in the order they were first set.
    public func makeIterator() -> AnyIterator<Element> {
        var iterator = entries.makeIterator()
        return AnyIterator { iterator.next().map { ($0.key, $0.value) } }
    }

    /// Calls `body` for each entry without building tuples or an iterator box (hot path of encoders).
    @inlinable
    public func forEachEntry(_ body: (Attribute, AttributeValue) throws -> Void) rethrows {
        for entry in entries { try body(entry.key, entry.value) }
    }

    /// The entries in first-set order, read in place: encoders walk every attribute of every
    /// event, and this neither copies values nor builds tuples.
    @inlinable
    public func withUnsafeEntries<R>(_ body: (UnsafeBufferPointer<Entry>) throws -> R) rethrows -> R {
        try entries.withUnsafeBufferPointer(body)
    }

    /// The entry at a position in first-set order (0..<count).
    @inlinable
    public func entry(at position: Int) -> Element {
        (entries[position].key, entries[position].value)
    }

    public var dictionary: [Attribute: AttributeValue] {
        Dictionary(entries.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
    }

    public static func == (lhs: AttributeMap, rhs: AttributeMap) -> Bool {
        lhs.count == rhs.count && lhs.entries.allSatisfy { rhs[$0.key] == $0.value }
    }

    public var description: String {
        "[" + entries.map { "\($0.key.name): \($0.value)" }.sorted().joined(separator: ", ") + "]"
    }
}
