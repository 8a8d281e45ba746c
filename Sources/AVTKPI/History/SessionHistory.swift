import AVTTrackers

/// The state histories of one session's playbacks, built from what its trackers did: each
/// tracker's actions before the hub filters them and, for player trackers, the player's own
/// observations (state, playWhenReady, seek, error, format). From an event log, only the
/// delivered actions are known, and playbacks are split where the hub's playbackId changes.
package struct SessionHistory: Sendable {
    package let session: String
    /// Keeps every state change and format (the report); `kpi` keeps only the sums.
    let keepSpans: Bool
    /// True for an event log: a new hub playbackId is a new playback.
    let fromEvents: Bool
    package internal(set) var playbacks = PlaybackStore()
    /// Fold each playback once it is over (`foldFinished`): `kpi` without state histories.
    package var foldsFinished = false
    /// The playbacks folded and not yet taken (`takeFolded`), oldest first, those with media.
    package private(set) var folded: [(id: String, figures: PlaybackFigures)] = []
    var trackers: [TrackerModel] = []
    /// Trackers of an event log, by name, in order of appearance.
    var trackerNames: [String: Int] = [:]
    /// The playback ads interrupt: the last content playback that began.
    var content: Int?
    /// The end of the recording: open states run until then.
    package var end = 0
    /// The session name's hash, the start of every playback id.
    let idPrefix: (UInt64, UInt64)
    /// Player trackers whose state waits for the end of the instant `unsettledAt` (see `resolve`).
    var unsettled: [Int] = []
    var unsettledAt = 0

    package init(session: String, keepSpans: Bool = false, fromEvents: Bool = false) {
        self.session = session
        idPrefix = Self.idPrefix(session)
        self.keepSpans = keepSpans
        self.fromEvents = fromEvents
    }

    /// The vocabulary of each of the timeline's trackers, by index.
    package mutating func configure(_ trackers: [(kind: TrackerKind, isAds: Bool)]) {
        self.trackers = trackers.map { TrackerModel(vocabulary: Self.vocabulary($0.kind, isAds: $0.isAds)) }
    }

    static func vocabulary(_ kind: TrackerKind, isAds: Bool) -> TrackerModel.Vocabulary {
        if isAds { return .ads }
        switch kind.base {
        // The avmetrics tracker's actions are OpenAVT's, derived from Apple's events.
        case .generic, .avmetrics: return .actions
        case .exoplayer: return .exoplayer
        case .avplayer: return .avplayer
        case .html5: return .html5
        case .ima: return .ads
        case .netstats: return .none
        default: return .actions
        }
    }

    /// The index of an event log's tracker by name (a new one reads actions).
    mutating func trackerIndex(named name: String) -> Int {
        if let index = trackerNames[name] { return index }
        trackerNames[name] = trackers.count
        trackers.append(TrackerModel(vocabulary: .actions))
        return trackers.count - 1
    }

    /// The histories as they stand at the end of the recording (`build(isFinal: false)`).
    package var closedPlaybacks: [PlaybackHistory] {
        var history = self
        history.settle()
        return history.reported.map { $0.closed(at: max(end, $0.begin)) }
    }

    /// The playbacks the KPIs report: those of a player that had media.
    var reported: LazyFilterSequence<ArraySlice<PlaybackHistory>> { playbacks.kept.lazy.filter(\.hasMedia) }

    // MARK: Playbacks

    /// A stable id, different for each session and each playback in it, the same on every run:
    /// a UUID-shaped FNV-1a hash of the session name and the playback's number.
    static func playbackId(session: String, index: Int) -> String {
        playbackId(prefix: idPrefix(session), index: index)
    }

    /// The two FNV-1a states after the session's name and a 0 byte (hashed once per session).
    static func idPrefix(_ session: String) -> (UInt64, UInt64) {
        var a: UInt64 = 0xcbf2_9ce4_8422_2325
        var b: UInt64 = 0xcbf2_9ce4_8422_2325 ^ 0x9e37_79b9
        for byte in session.utf8 {
            a = (a ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            b = (b ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return (a &* 0x0000_0100_0000_01b3, b &* 0x0000_0100_0000_01b3)
    }

    static func playbackId(prefix: (UInt64, UInt64), index: Int) -> String {
        var (a, b) = prefix
        for byte in String(index).utf8 {
            a = (a ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            b = (b ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(36)
        for (n, word) in [a, b].enumerated() {
            for nibble in 0..<16 {
                let position = n * 16 + nibble
                if position == 8 || position == 12 || position == 16 || position == 20 { out.append(UInt8(ascii: "-")) }
                out.append(digits[Int((word >> UInt64(60 - 4 * nibble)) & 0xf)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Begins a new playback on the tracker; the one it was on is over: ENDED if it ended,
    /// else ABANDONED (PlaybackStatsListener's `onFinished`), unless it stopped or failed.
    @discardableResult
    mutating func beginPlayback(tracker: Int, at t: Int, automatic: Bool = false) -> Int {
        if let old = trackers[tracker].current {
            if !playbacks.items[playbacks.position(old)].state.isTerminal {
                playbacks.items[playbacks.position(old)].enter(automatic ? .ended : .abandoned, at: t)
            }
            playbacks.items[playbacks.position(old)].finishedAt = t
        }
        let index = playbacks.count
        playbacks.append(
            PlaybackHistory(
                id: Self.playbackId(prefix: idPrefix, index: index), begin: t, keepSpans: keepSpans))
        trackers[tracker].current = index
        trackers[tracker].hub.newPlayback()
        // An ExoPlayer without media makes no session (see `TrackerModel.hasMedia`).
        playbacks.items[playbacks.position(index)].hasMedia =
            trackers[tracker].vocabulary != .exoplayer || trackers[tracker].hasMedia
        playbacks.items[playbacks.position(index)].rendersExplicitly = [.html5, .avplayer].contains(
            trackers[tracker].vocabulary)
        if trackers[tracker].vocabulary != .ads { content = index }
        if trackers[tracker].vocabulary == .actions {
            // Actions describe a new item from its request on.
            trackers[tracker].signals = PlayerSignals()
        } else {
            // The player carries on; only the error and the seek belong to the playback that ends.
            trackers[tracker].signals.hasFatalError = false
            trackers[tracker].signals.isSeeking = false
            trackers[tracker].signals.seekAwaitsData = false
            // A player still asked to play goes on to the next item (a playlist, a new source):
            // the instruction to play it is the move to it.
            if trackers[tracker].signals.playWhenReady, trackers[tracker].readsObservations {
                playbacks.items[playbacks.position(index)].request = t
            }
        }
        return index
    }

    /// The tracker's current playback, begun now if it has none.
    mutating func currentPlayback(tracker: Int, at t: Int) -> Int {
        trackers[tracker].current ?? beginPlayback(tracker: tracker, at: t)
    }

    /// Resolves the tracker's player signals into the playback's state at `t`. A player tracker's
    /// state is resolved once per batch, after everything in it, as PlaybackStatsListener's
    /// `onEvents(Player, Events)` hands one player-loop iteration's events to
    /// `PlaybackStatsTracker.onEvents`, which calls `resolveNewPlaybackState` once, from the
    /// player as the batch left it: a state that lasts no time within the batch (READY before the
    /// play request of the same batch) is never entered. A batch is what the tracker observed and
    /// emitted at one instant, in one step or several (a CSV row per run of columns), until an
    /// input that cannot be in the same batch (see `batch`). A tracker of actions is resolved at
    /// each action: each one reports a change the tracker saw.
    mutating func resolve(tracker: Int, at t: Int) {
        guard trackers[tracker].readsObservations else {
            resolveNow(tracker: tracker, at: t)
            return
        }
        // `advance(to:)` settled any earlier instant before this input.
        unsettledAt = t
        if !unsettled.contains(tracker) { unsettled.append(tracker) }
    }

    /// Ends the instant: each waiting player tracker's batch is resolved.
    package mutating func settle() {
        guard !unsettled.isEmpty else { return }
        for tracker in unsettled { settle(tracker: tracker, at: unsettledAt) }
        unsettled.removeAll(keepingCapacity: true)
    }

    /// Places a player tracker's input `key` (an observation's key, `stop` for a Stop action) in
    /// a batch: the one open at this instant, unless the input cannot belong to it, then a new
    /// one once the open one is resolved. `AnalyticsListener.Events` is a set of event flags, so
    /// one `onEvents` batch reports each kind of event once, with the player's values after the
    /// iteration: a key the batch already has (a second `playbackState`, `playWhenReady`, HTML5
    /// `event`) is a later batch. An app's `stop()` or `release()` is a call of its own, whose
    /// events ExoPlayer sends as a batch once it returns: what the player reported before it at
    /// the same instant (an ENDED) was an earlier batch. The tracker's own Stop for that call
    /// belongs to the call's batch.
    mutating func batch(_ key: ObservationName, tracker: Int) {
        // Read in place: a local copy of the keys would make the append copy them.
        let isCall = key == .stop || key == .release
        if trackers[tracker].batchKeys.contains(key) || (isCall && !trackers[tracker].batchKeys.isEmpty) {
            endBatch(tracker: tracker)
        }
        trackers[tracker].batchKeys.append(key)
    }

    /// A Stop action of a player tracker: the tracker's own, after its player's `stop`/`release`
    /// (same batch), or a scripted one (an app's call: a batch of its own).
    mutating func batchStop(tracker: Int) {
        if trackers[tracker].batchKeys.contains(where: { $0 == .stop || $0 == .release }) { return }
        batch(.stop, tracker: tracker)
    }

    /// Resolves the tracker's open batch now (a new one begins at the same instant).
    private mutating func endBatch(tracker: Int) {
        if let n = unsettled.firstIndex(of: tracker) {
            unsettled.remove(at: n)
            settle(tracker: tracker, at: unsettledAt)
        }
        trackers[tracker].batchKeys.removeAll(keepingCapacity: true)
    }

    /// `PlaybackStatsTracker.onEvents` after a batch: the seek ends unless the player buffers for
    /// it, the played format is updated, then the state is resolved.
    private mutating func settle(tracker: Int, at t: Int) {
        trackers[tracker].batchKeys.removeAll(keepingCapacity: true)
        // ExoPlayer's rule: a seek lasts while the player buffers for it. HTML5 says when a seek
        // ends (`seeked`); AVPlayer does not, and a paused AVPlayer's seek lasts until it plays
        // (the tracker's SeekFinish comes then too).
        let signals = trackers[tracker].signals
        switch trackers[tracker].vocabulary {
        case .html5: break
        case .avplayer:
            if signals.playWhenReady, signals.state != .buffering { trackers[tracker].signals.isSeeking = false }
        default:
            if signals.state != .buffering { trackers[tracker].signals.isSeeking = false }
        }
        guard let index = trackers[tracker].current else {
            trackers[tracker].batchFormat = nil
            trackers[tracker].batchVideoHeight = nil
            return
        }
        // A PlaybackStats session begins with the media: a seek from before has no tracker to
        // hold it.
        if !playbacks.items[playbacks.position(index)].hasMedia { trackers[tracker].signals.isSeeking = false }
        let played = trackers[tracker].played
        if trackers[tracker].vocabulary == .exoplayer {
            if played.height != playbacks.items[playbacks.position(index)].height
                || played.bitrate != playbacks.items[playbacks.position(index)].bitrate
            {
                playbacks.items[playbacks.position(index)].setPlayedFormat(played, at: t)
            }
            settleExoPlayerFormat(tracker: tracker, playback: index, at: t)
        } else if played.height != playbacks.items[playbacks.position(index)].height
            || played.bitrate != playbacks.items[playbacks.position(index)].bitrate
        {
            playbacks.items[playbacks.position(index)].setFormat(height: played.height, bitrate: played.bitrate, at: t)
        }
        resolveNow(tracker: tracker, at: t)
    }

    private mutating func resolveNow(tracker: Int, at t: Int) {
        guard let index = trackers[tracker].current else { return }
        // Without media there is no session yet: its history begins when the media comes.
        guard playbacks.items[playbacks.position(index)].hasMedia else { return }
        if trackers[tracker].signals.seekAwaitsData, trackers[tracker].signals.state != .buffering {
            trackers[tracker].signals.isSeeking = false
            trackers[tracker].signals.seekAwaitsData = false
        }
        let new = trackers[tracker].signals.resolve(from: playbacks.items[playbacks.position(index)].state)
        playbacks.items[playbacks.position(index)].enter(new, at: t)
    }

    /// The end of the recording moves with every input; a later input ends the instant before.
    mutating func advance(to t: Int) {
        if t > unsettledAt { settle() }
        end = max(end, t)
        if foldsFinished { foldFinished() }
    }

    /// Folds the oldest playbacks that are over into their figures. A playback another one
    /// took over from (`finishedAt`) is no tracker's current one, and only a current playback
    /// changes; the state it was left in is terminal (ENDED, ABANDONED, STOPPED, FAILED), whose
    /// time no KPI counts, so its figures closed where it finished are the ones closed at the
    /// end of the recording (its Shaka view closes at `finishedAt` either way, `closed(at:)`).
    /// Oldest first, because playbacks are printed in the order they began.
    private mutating func foldFinished() {
        while let finished = playbacks.oldestFinishedAt, finished <= end {
            let playback = playbacks.removeFirst()
            guard playback.hasMedia else { continue }
            folded.append((playback.id, PlaybackFigures(playback.closed(at: max(finished, playback.begin)))))
        }
    }

    /// The timeline gives `tracker` no more steps, the last one at `t` (`Step.endsTracker`: an
    /// access log's session on a tracker of its own, stopped and released). A playback it left
    /// in a terminal state can change no more, so it is over there, as if taken over, and can
    /// be folded: otherwise the first session's playback, never taken over, would hold every
    /// later one in memory until the end of the recording (they are folded oldest first). Its
    /// batch is resolved now, as nothing more comes for it at this instant. One that is not
    /// terminal still runs to the end of the recording.
    package mutating func trackerEnded(_ tracker: Int, at t: Int) {
        guard foldsFinished, trackers.indices.contains(tracker) else { return }
        endBatch(tracker: tracker)
        guard let index = trackers[tracker].current,
            playbacks.items[playbacks.position(index)].state.isTerminal
        else { return }
        playbacks.items[playbacks.position(index)].finishedAt = t
        // Nothing of the tracker is read again: what it kept (its batch keys, its signals) goes.
        trackers[tracker] = TrackerModel(vocabulary: trackers[tracker].vocabulary)
        foldFinished()
    }

    /// The playbacks folded since the last call, oldest first.
    package mutating func takeFolded() -> [(id: String, figures: PlaybackFigures)] {
        defer { folded.removeAll(keepingCapacity: true) }
        return folded
    }
}

extension SessionHistory {
    /// Makes room for a tracker first seen in an event (a live backend without the timeline).
    package mutating func ensureTracker(_ index: Int, isAds: Bool) {
        guard index >= 0, index < 1 << 16 else { return }
        while trackers.count <= index { trackers.append(TrackerModel(vocabulary: isAds ? .ads : .actions)) }
    }
}
