import XCTest

@testable import AVTKPI
@testable import AVTReplay
@testable import AVTTimeline

/// Each access-log session ends where the log's knowledge of it ends (a Stop, then the player's
/// release), whether it played or not, and its own tracker gets nothing more: `kpi` folds its
/// playback there, so a log of thousands of sessions holds the sessions under way, not all of
/// them until the end, with the figures of the session kept whole.
final class AccessLogSessionEndTests: XCTestCase {
    private typealias Support = PlayerLogTestSupport

    private static let fields =
        "#Fields: date time uri cs-guid c-start-time c-duration-watched c-stalls c-startup-time sc-indicated-bitrate bytes"

    /// Session B loaded but never played (one dateless event), between two that played.
    private static let neverPlayed = """
        \(fields)
        2026/01/02 10:00:00.000 v1.m3u8 A 0.000 30.000 0 1.500 800000 1000
        - - v1.m3u8 B 0.000 0.000 0 - 800000 1000
        2026/01/02 10:05:00.000 v1.m3u8 C 0.000 60.000 1 2.000 800000 1000
        """

    func testASessionThatNeverPlayedEndsWhereItLoaded() throws {
        let (settings, steps, _) = try Support.read(bytes: Self.neverPlayed, format: .avplayerAccesslog)
        XCTAssertEqual(
            Support.lines(steps, settings),
            [
                "0 content status=\"readyToPlay\"",
                // No c-observed-bitrate: no transfer time, so the bytes count for nothing.
                "1500 content currentTime=0 indicatedBitrate=800000 rate=1 timeControlStatus=\"playing\"",
                "31500 content action=Stop",
                "31500 content release=true",
                // B: all the log knows is that its stream loaded; it ends there, before C begins.
                "31500 content-2 status=\"readyToPlay\"",
                "31500 content-2 action=Stop",
                "31500 content-2 release=true",
                "31500 content-3 status=\"readyToPlay\"",
                "33500 content-3 currentTime=0 indicatedBitrate=800000 rate=1 timeControlStatus=\"playing\"",
                "93500 content-3 timeControlStatus=\"waitingToPlayAtSpecifiedRate\"",
                "93500 content-3 timeControlStatus=\"playing\"",
                "93500 content-3 action=Stop",
                "93500 content-3 release=true",
            ])
        // Each session's last step ends its tracker.
        XCTAssertEqual(steps.filter(\.endsTracker).map(\.t), [31500, 31500, 93500])
        XCTAssertEqual(
            steps.filter(\.endsTracker).map { $0.observe.map(\.key) }, [["release"], ["release"], ["release"]])

        let path = try Self.write(Self.neverPlayed)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let kpis = try Support.kpis(path)
        XCTAssertEqual(kpis.count, 3)
        // B never started: an exit before video start whose wait ends at its own Stop (31500 −
        // 31500), not at the end of the recording (93500), which is C's time.
        XCTAssertEqual(kpis[1][name: "exitBeforeVideoStart"], .bool(true))
        XCTAssertEqual(kpis[1].int("waitTime"), 0)
        XCTAssertEqual(kpis[1].int("playTime"), 0)
        // A and C as the log gives them: startup = c-startup-time, play = c-duration-watched.
        XCTAssertEqual(kpis[0].int("waitTime"), 1500)
        XCTAssertEqual(kpis[2].int("waitTime"), 2000)
        XCTAssertEqual(kpis[2].int("playTime"), 60_000)
    }

    /// The replay lets each session's tracker go once its release is played: its getters and
    /// timers with it, so the trackers held are those of the sessions under way.
    func testTheReplayLetsEachSessionsTrackerGo() throws {
        let path = try Self.write(Self.neverPlayed)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var source = try TimelineReader.open(path, format: nil, csvTrackers: [], warn: { _ in })
        var replayer: Replayer?
        var live: [[Int]] = []
        let counter = ActionCounter()
        _ = try Replayer.replay(
            &source, options: RunOptions(), backend: counter, prepare: { replayer = $0 },
            played: { _ in live.append(replayer?.instrument.trackers.compactMap(\.trackerId) ?? []) })
        // A, B and C each on a tracker of its own; B's and C's are there until their releases
        // (steps 6 and 12 of 12: readyToPlay, Stop, release each, and C's stall).
        XCTAssertEqual(live.first, [0, 1, 2])
        XCTAssertEqual(live[3], [1, 2], "A's release is its 4th step")
        XCTAssertEqual(live[6], [2], "B loads, stops and is released at the same instant")
        XCTAssertEqual(live.last, [])
        // B never started: the hub rejects a Stop before Start, so A's and C's are delivered.
        XCTAssertEqual(counter.counts["Stop"], 2)
    }

    /// 12 sessions of 3 events, every fourth one never played: `kpi` folds each session's
    /// playback once its release is played, not at the end, and the figures are those of the
    /// session replayed whole.
    func testKPIFoldsEachSessionWhenItsTrackerEnds() throws {
        var text = Self.fields + "\n"
        for n in 0..<12 {
            for i in 0..<3 {
                let date = n % 4 == 3 ? "- -" : "2026/01/02 1\(n / 6):\(10 + (n % 6) * 8 + i):00.000"
                text += "\(date) v\(i % 2).m3u8 S\(n) \(i * 20).000 20.000 \(i % 2) 1.\(n)00 800000 \(1000 * (i + 1))\n"
            }
        }
        let path = try Self.write(text)
        defer { try? FileManager.default.removeItem(atPath: path) }

        func open() throws -> any TimelineSource {
            try TimelineReader.open(path, format: nil, csvTrackers: [], warn: { _ in })
        }
        var plain = try open()
        let (whole, _) = try KPISessions.replay(&plain, session: "s")
        XCTAssertEqual(whole.playbackIds.count, 12)
        // Where each session's release is among the steps.
        var steps: [Step] = []
        var reader = try open()
        while let step = try reader.nextStep() { steps.append(step) }
        let releases = steps.indices.filter { steps[$0].endsTracker }
        XCTAssertEqual(releases.count, 12)

        let read = StepCount()
        var source = CountingSource(base: try open(), count: read)
        var folded: [(id: String, figures: PlaybackFigures, stepsRead: Int)] = []
        let (rest, _) = try KPISessions.replay(
            &source, session: "s", folded: { _, id, figures in folded.append((id, figures, read.value)) })
        // Every playback is folded as soon as its session's release is played, before the next
        // step is read: none is left for the end.
        XCTAssertEqual(folded.map(\.id), whole.playbackIds)
        XCTAssertEqual(folded.map(\.stepsRead), releases.map { $0 + 1 })
        XCTAssertTrue(rest.playbackIds.isEmpty, "\(rest.playbackIds)")
        for (n, id) in whole.playbackIds.enumerated() {
            XCTAssertEqual(
                KPICalculator.values(folded[n].figures, .openavt, flags: true),
                whole.playback(id, definitions: .openavt),
                "playback \(n)")
        }
    }

    private static func write(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ends-\(UUID().uuidString).log").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}

/// How many steps a `CountingSource` gave.
private final class StepCount {
    var value = 0
}

/// A source that counts the steps it gives, for when a fold happens.
private struct CountingSource: TimelineSource {
    var base: any TimelineSource
    let count: StepCount
    var name: String { base.name }
    var settings: TimelineSettings { base.settings }

    mutating func nextStep() throws(TimelineError) -> Step? {
        let step = try base.nextStep()
        if step != nil { count.value += 1 }
        return step
    }
}
