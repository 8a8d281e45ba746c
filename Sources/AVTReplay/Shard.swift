import AVTTimeline

/// `--shard K/N`: this machine takes the sessions whose name hashes to K of N (1-based), so N
/// machines split a corpus without talking to each other, and adding or removing a file moves
/// no other file between shards (a shard by position would move every file after it). A
/// session's name is its path relative to the folder it was found in, or the path as given
/// (without `./`) for a file named on the command line, so a corpus reached from another
/// directory shards the same way. The hash is FNV-1a (64-bit) of the name's UTF-8: the same on
/// every machine and in every run.
package struct Shard: Sendable, Equatable, CustomStringConvertible {
    package let index: Int
    package let count: Int

    package init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, (1...n).contains(k) else {
            return nil
        }
        index = k
        count = n
    }

    /// Whether the session named `name` (see `name(of:in:)`) is this shard's.
    package func contains(_ name: String) -> Bool {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return Int(hash % UInt64(count)) == index - 1
    }

    /// The name a session shards by: `path` relative to `folder` when it was found in one, else
    /// the path as given without a leading `./`.
    package static func name(of path: String, in folder: String?) -> String {
        if let folder {
            let prefix = folder.hasSuffix("/") ? folder : folder + "/"
            if path.hasPrefix(prefix) { return String(path.dropFirst(prefix.count)) }
        }
        var name = Substring(path)
        while name.hasPrefix("./") { name = name.dropFirst(2) }
        return String(name)
    }

    package var description: String { "\(index)/\(count)" }
}
