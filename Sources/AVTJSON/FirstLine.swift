/// The first line of a head of bytes that holds something other than blanks, found line by
/// line from the start: the sniffers that look at it ran for every input of a corpus, and
/// splitting a 64 KB head into all its lines cost more than reading a small timeline.
package enum FirstLine {
    package static func nonBlank(_ head: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        var rest = head
        while !rest.isEmpty {
            let end = rest.firstIndex(of: 0x0A) ?? rest.endIndex
            let line = rest[rest.startIndex..<end]
            if line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) { return line }
            rest = end < rest.endIndex ? rest[(end + 1)...] : rest[rest.endIndex...]
        }
        return nil
    }
}
