/// A session's playbacks by number (the order they began), of which the oldest may have been
/// let go: `kpi` folds a playback that is over into its figures (`SessionHistory.foldFinished`)
/// and drops its history, so a session of 10^5 playbacks holds the few still under way, not
/// every one. Numbers stay what they were: `items[position(n)]` is playback n, for any n not let
/// go. The array is reached directly rather than through a subscript of the store's own: a
/// `_modify` accessor yielding an element of the array let an optional-chained mutation of a
/// playback read memory already freed (AddressSanitizer, html5 observations).
package struct PlaybackStore: Sendable {
    /// The playbacks not let go, after some already let go (before `head`).
    var items: [PlaybackHistory] = []
    /// `items[head]` is playback number `base`; those before `head` were let go.
    private var head = 0
    private var base = 0

    init() {}

    /// How many playbacks began (those let go included).
    package var count: Int { base + items.count - head }

    /// Where playback number `index` is in `items`.
    func position(_ index: Int) -> Int { head + index - base }

    /// Playback number `index`, read.
    package subscript(index: Int) -> PlaybackHistory { items[position(index)] }

    mutating func append(_ playback: PlaybackHistory) { items.append(playback) }

    /// When the oldest playback not let go was taken over (nil: it is under way, or there is
    /// none); read in place, as it is asked at every input.
    var oldestFinishedAt: Int? { head < items.count ? items[head].finishedAt : nil }

    /// Lets the oldest playback go; the array is compacted once most of it is let go, so each
    /// playback is moved at most about once.
    mutating func removeFirst() -> PlaybackHistory {
        let playback = items[head]
        head += 1
        base += 1
        if head >= 64, head * 2 >= items.count {
            items.removeFirst(head)
            head = 0
        }
        return playback
    }

    /// The playbacks not let go, oldest first.
    var kept: ArraySlice<PlaybackHistory> { items[head...] }
}
