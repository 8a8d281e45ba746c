import AVTCore
import AVTJSON
import AVTOutput

/// KPIs of one session: one state history per playback, in the order they began.
public struct SessionKPIs: Sendable {
    /// The session's name: its input path (`<stdin>` for standard input), or a run's `session`.
    public let session: String
    /// The AVMetrics events of the session's first avmetrics tracker, for the startup breakdown
    /// and the summary cross-check; nil without one.
    package var avmetrics: AVMetricsSessionLog?
    /// The AVMetrics breakdown as a partial file keeps it (`KPIPartialReader`): already rendered,
    /// as a table and as JSON, in the file's definition set; nil otherwise.
    package var avmetricsRendered: (table: String, json: JSONValue)?
    /// Each playback's history closed at the end of the recording, when its spans were kept
    /// (the report draws them, `kpi --format json` and `--states` print them one session at a
    /// time; otherwise `kpi` keeps only the figures, so memory holds no state list).
    package private(set) var histories: [PlaybackHistory]
    /// The playbacks' ids, in the order they began.
    public let playbackIds: [String]
    let figures: [PlaybackFigures]
    private let indexOfId: [String: Int]
    /// The end of the recording (ms).
    package let end: Int

    /// A session with no playback.
    public init(session: String) { self.init(SessionHistory(session: session)) }

    package init(_ history: SessionHistory) {
        // The last instant ends with the recording (a copy only when it is still open).
        var history = history
        history.settle()
        session = history.session
        // One playback closed at a time: no second copy of every history is held.
        histories = history.keepSpans ? history.closedPlaybacks : []
        // The playbacks folded as they finished (`foldsFinished`) and not taken yet come first:
        // they began before every playback still kept.
        let playbacks = history.reported
        playbackIds = history.folded.map(\.id) + playbacks.map(\.id)
        figures =
            history.folded.map(\.figures) + playbacks.map { PlaybackFigures($0.closed(at: max(history.end, $0.begin))) }
        var index: [String: Int] = [:]
        for (n, id) in playbackIds.enumerated() where index[id] == nil { index[id] = n }
        indexOfId = index
        end = history.end
    }

    /// A session read back from a partial file: its playbacks' figures and histories as they
    /// were when it was replayed (`KPIPartialReader`).
    package init(
        session: String, end: Int, playbacks: [(id: String, figures: PlaybackFigures)], histories: [PlaybackHistory]
    ) {
        self.session = session
        self.end = end
        self.histories = histories
        playbackIds = playbacks.map(\.id)
        figures = playbacks.map(\.figures)
        var index: [String: Int] = [:]
        for (n, id) in playbackIds.enumerated() where index[id] == nil { index[id] = n }
        indexOfId = index
    }

    /// The same KPIs without the state lists: what `kpi` keeps of a session once it printed its
    /// history, so the spans of one session at a time are in memory, not those of all of them.
    public var withoutHistories: SessionKPIs {
        var copy = self
        copy.histories = []
        return copy
    }

    /// The playback's KPIs in one definition set, in `KPIName.all` order; empty for an unknown id.
    public func playback(_ id: String, definitions: KPIDefinitions) -> [KPI] {
        guard let n = indexOfId[id] else { return [] }
        return KPICalculator.values(figures[n], definitions, flags: true)
    }

    /// Whether the recording begins after the playback's start (a `midSession` mark): its
    /// startup is not recorded, which is not the same as never started.
    package func startNotRecorded(_ id: String) -> Bool {
        guard let n = indexOfId[id] else { return false }
        return figures[n].startNotRecorded > 0
    }

    /// Over the session's playbacks, as PlaybackStats merges them: times and counts added,
    /// ratios from the sums, flags counted (playbacks started, exited before start, failed…),
    /// startup the mean over the playbacks that have one.
    public func totals(definitions: KPIDefinitions) -> [KPI] {
        KPICalculator.values(pooled, definitions, flags: false)
    }

    /// Every playback's figures added together.
    package var pooled: PlaybackFigures {
        var sum = PlaybackFigures()
        for f in figures { sum.merge(f) }
        return sum
    }

    /// The session read from an event log's records (`kpi --from-events`, `report`).
    package static func fromRecords(_ session: String, _ records: [OutputRecord], keepSpans: Bool = false)
        -> SessionKPIs
    {
        var history = SessionHistory(session: session, keepSpans: keepSpans, fromEvents: true)
        for record in records { history.add(record) }
        return SessionKPIs(history)
    }
}

extension SessionHistory {
    /// One record of an event log: its tracker (by name), action, playbackId and the values
    /// the hub added.
    package mutating func add(_ record: OutputRecord) {
        let t = record.t ?? 0
        advance(to: t)
        guard record.type == "event" else { return }
        var playbackId: String?
        var startTime: Int?
        var requestTime: Int?
        var height: Int?
        var bitrate: Int?
        var isAds = false
        for (key, value) in record.attributes {
            switch (key, value) {
            case ("playbackId", .string(let s)): playbackId = s
            case ("timeSinceMediaRequest", .int(let i)): requestTime = i
            case ("timeSinceStreamLoad", .int(let i)): startTime = i
            case ("resolutionHeight", .int(let i)): height = i
            case ("bitrate", .int(let i)): bitrate = i
            case ("isAdsTracker", .bool(let b)): isAds = b
            default: break
            }
        }
        let tracker = trackerIndex(named: record.tracker ?? "")
        if isAds, trackers[tracker].vocabulary == .actions, trackers[tracker].current == nil {
            trackers[tracker].vocabulary = .ads
        }
        action(HistoryAction(record.label), tracker: tracker, at: t, hubPlaybackId: playbackId)
        delivered(
            action: record.label, tracker: tracker, at: t,
            startTime: record.label == "Start" ? requestTime ?? startTime : nil, height: height, bitrate: bitrate)
    }
}
