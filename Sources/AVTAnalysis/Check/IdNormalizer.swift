import AVTKPI
import AVTOutput

/// Renames random ids by first appearance (`playbackId` → P1, P2…; `streamId` → S1…; the
/// instrument part of `senderId` → I-<tracker>) and drops `--ignore`d members, one record at a
/// time: a whole output and a stream of records get the same names.
struct IdNormalizer {
    private let ignore: Set<String>
    private var playbacks: [String: String] = [:]
    private var streams: [String: String] = [:]

    init(ignore: Set<String>) { self.ignore = ignore }

    /// The record as compared, with the ids it held kept in `originalIds` for reports.
    mutating func callAsFunction(_ record: OutputRecord) -> OutputRecord {
        var record = record
        record.members.removeAll { ignore.contains($0.key) }
        var originals: [String: String] = [:]
        record.attributes = record.attributes.compactMap { key, value in
            if ignore.contains(key) { return nil }
            guard case .string(let text) = value else { return (key, value) }
            switch key {
            case "playbackId":
                originals[key] = text
                return (key, .string(Self.label(text, "P", &playbacks)))
            case "streamId":
                originals[key] = text
                return (key, .string(Self.label(text, "S", &streams)))
            case "senderId":
                originals[key] = text
                return (key, .string("I-" + (text.split(separator: "-").last.map(String.init) ?? "")))
            default: return (key, value)
            }
        }
        record.originalIds = originals
        return record
    }

    private static func label(_ id: String, _ prefix: String, _ table: inout [String: String]) -> String {
        if let known = table[id] { return known }
        let new = prefix + String(table.count + 1)
        table[id] = new
        return new
    }
}
