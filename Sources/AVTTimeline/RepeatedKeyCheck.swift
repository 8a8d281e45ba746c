import AVTCore

/// Finds a key repeated within one `attributes` object. A scan of the entries so far is fastest
/// for the usual few keys; past `scanLimit` a set takes over, or the check alone would be
/// quadratic in the keys of a large object (10^5 keys: minutes).
struct RepeatedKeyCheck {
    static let scanLimit = 16
    private var seen = Set<Int32>()

    /// Whether `attribute` is already among `entries` (the object's keys so far, in order).
    mutating func isRepeated(_ attribute: Attribute, in entries: [(attribute: Attribute, value: AttributeValue?)])
        -> Bool
    {
        if entries.count < Self.scanLimit { return entries.contains { $0.attribute == attribute } }
        if entries.count == Self.scanLimit { seen = Set(entries.map(\.attribute.index)) }
        return !seen.insert(attribute.index).inserted
    }
}
