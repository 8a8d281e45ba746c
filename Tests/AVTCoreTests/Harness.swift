import AVTCore
import XCTest

// Test harness for the engine: a recording backend, upstream's DummyTracker, and a Replay driver
// that runs steps on the virtual clock and names stream/playback ids S1…/P1… by first appearance.

/// One backend delivery, in the order the instrument made it.
enum Delivery: CustomStringConvertible {
    case metric(Metric)
    case event(Event)

    var event: Event? {
        if case .event(let e) = self { return e }
        return nil
    }

    var metric: Metric? {
        if case .metric(let m) = self { return m }
        return nil
    }

    var description: String {
        switch self {
        case .metric(let m): return "metric \(m.name)=\(m.value)@\(m.timestamp)"
        case .event(let e): return "event \(e.action.name)@\(e.timestamp) from \(e.trackerId.map(String.init) ?? "nil")"
        }
    }
}

/// Records every metric and event it is sent (upstream's DummyBackend, without popping).
final class RecordingBackend: Backend {
    private(set) var deliveries: [Delivery] = []
    private(set) var readyCalls = 0
    private(set) var endOfServiceCalls = 0

    func instrumentReady(_ instrument: Instrument) { readyCalls += 1 }
    func sendEvent(_ event: Event) { deliveries.append(.event(event)) }
    func sendMetric(_ metric: Metric) { deliveries.append(.metric(metric)) }
    func endOfService() { endOfServiceCalls += 1 }
}

/// Upstream's test tracker: registers an `isAdsTracker` getter (false, or true for the ads variant)
/// the first time the instrument is ready and passes events through. Optionally a `trackerTarget`
/// getter plus a TrackerInit emission (S00), and a `position` getter returning `position`.
final class DummyTracker: Tracker {
    var trackerId: Int?
    var state = TrackerState()
    let isAds: Bool
    let trackerTarget: String?
    let emitsTrackerInit: Bool
    let hasPositionGetter: Bool
    /// What the position getter returns (nil: no value).
    var position: Int?
    private(set) weak var instrument: Instrument?
    private(set) var endOfServiceCalls = 0

    init(
        ads: Bool = false, trackerTarget: String? = nil, emitsTrackerInit: Bool = false,
        position: Int? = nil, hasPositionGetter: Bool = false
    ) {
        self.isAds = ads
        self.trackerTarget = trackerTarget
        self.emitsTrackerInit = emitsTrackerInit
        self.position = position
        self.hasPositionGetter = hasPositionGetter || position != nil
    }

    func instrumentReady(_ instrument: Instrument) {
        guard self.instrument == nil else { return }
        self.instrument = instrument
        let isAds = self.isAds
        instrument.registerGetter(.isAdsTracker, AttributeGetter { .bool(isAds) }, tracker: self)
        if let target = trackerTarget {
            instrument.registerGetter(.trackerTarget, AttributeGetter { .string(target) }, tracker: self)
        }
        if hasPositionGetter {
            instrument.registerGetter(
                .position, AttributeGetter { [weak self] in self?.position.map { .int($0) } }, tracker: self)
        }
        if emitsTrackerInit { instrument.emit(.trackerInit, tracker: self) }
    }

    func endOfService() { endOfServiceCalls += 1 }
}

/// One input step: at virtual time `t`, tracker `tracker` emits `action`.
struct Step {
    let t: Int
    let tracker: Int
    let action: Action

    init(_ t: Int, _ tracker: Int, _ action: Action) {
        self.t = t
        self.tracker = tracker
        self.action = action
    }
}

/// An instrument (hub + optional MetricalcCore + RecordingBackend) on a virtual clock, with
/// trackers added in order (ids 0, 1, …) and `ready()` called at t=0.
final class Replay {
    let clock = VirtualClock()
    let backend = RecordingBackend()
    let hub: HubCore
    let instrument: Instrument
    let trackers: [DummyTracker]
    private(set) var warnings: [Instrument.Warning] = []
    /// Under HubCoreAds: the content position every delivered event must carry (scenarios S19–S22).
    var expectedContentPosition: Int?
    private var consumed = 0
    private var playbackNames: [String: String] = [:]
    private var streamNames: [String: String] = [:]

    init(
        hub: HubCore = HubCore(), metrics: Bool = true, trackers: [DummyTracker] = [DummyTracker()],
        seed: UInt64 = 0
    ) {
        self.hub = hub
        self.trackers = trackers
        instrument = Instrument(
            hub: hub, metricalc: metrics ? MetricalcCore() : nil, backend: backend, clock: clock,
            identifiers: SeededUUIDGenerator(seed: seed))
        instrument.onWarning = { [weak self] in self?.warnings.append($0) }
        for tracker in trackers { instrument.addTracker(tracker) }
        instrument.ready()
    }

    /// Content tracker 0 (isAdsTracker=false, position 0) and ads tracker 1 under HubCoreAds.
    static func ads(metrics: Bool = true) -> Replay {
        let r = Replay(
            hub: HubCoreAds(), metrics: metrics,
            trackers: [DummyTracker(position: 0), DummyTracker(ads: true)])
        r.expectedContentPosition = 0
        return r
    }

    var isAdsHub: Bool { hub is HubCoreAds }

    /// `advanceClock(to: t)` (firing due pings first), then `emit(action)` from that tracker;
    /// returns everything delivered since the previous call.
    @discardableResult
    func step(_ t: Int, _ action: Action, tracker: Int = 0) -> [Delivery] {
        instrument.advanceClock(to: t)
        instrument.emit(action, trackerId: tracker)
        return drain()
    }

    /// Moves the clock (firing due pings); returns what was delivered.
    @discardableResult
    func advance(to t: Int) -> [Delivery] {
        instrument.advanceClock(to: t)
        return drain()
    }

    /// Runs the steps in order, then advances to `until`; returns everything delivered.
    @discardableResult
    func run(_ steps: [Step], until: Int? = nil) -> [Delivery] {
        var out: [Delivery] = []
        for s in steps { out += step(s.t, s.action, tracker: s.tracker) }
        if let until { out += advance(to: until) }
        return out
    }

    /// Deliveries not returned yet (e.g. those made by `ready()`).
    func drain() -> [Delivery] {
        let new = Array(backend.deliveries[consumed...])
        consumed = backend.deliveries.count
        for event in new.compactMap(\.event) {
            if let p = event[.playbackId]?.stringValue { _ = name(p, in: &playbackNames, prefix: "P") }
            if let s = event[.streamId]?.stringValue { _ = name(s, in: &streamNames, prefix: "S") }
        }
        return new
    }

    /// "P1", "P2", … in order of first appearance (unseen ids, e.g. the hub's next one, get the next name).
    func playbackName(_ id: String?) -> String? { id.map { name($0, in: &playbackNames, prefix: "P") } }
    func streamName(_ id: String?) -> String? { id.map { name($0, in: &streamNames, prefix: "S") } }

    private func name(_ id: String, in table: inout [String: String], prefix: String) -> String {
        if let known = table[id] { return known }
        let fresh = prefix + String(table.count + 1)
        table[id] = fresh
        return fresh
    }

    /// The senderId tracker `id`'s events carry: "<instrumentId>-<id>".
    func sender(_ id: Int) -> AttributeValue { .string(instrument.instrumentId + "-" + String(id)) }

    // MARK: Assertions

    /// The kind (gauge or counter) of each MetricalcCore metric.
    static let metricKinds: [String: Metric.Kind] = [
        "StartTime": .gauge, "NumPlays": .counter, "RebufferTime": .gauge, "NumRebuffers": .counter,
        "PlayTime": .gauge, "NumRequests": .counter, "NumLoads": .counter, "NumEnds": .counter,
    ]

    /// Asserts nothing was delivered (the step was blocked).
    func expectBlocked(_ d: [Delivery], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(d.isEmpty, "expected nothing delivered, got \(d)", file: file, line: line)
    }

    /// Asserts `d` is exactly the listed metrics (name=value, in order, same timestamp as the event,
    /// kind as in `metricKinds`) followed by one `action` event that carries the hub's standard attributes,
    /// the listed attribute values (playbackId/streamId compared by name P1/S1…) and none of `absent`.
    @discardableResult
    func expect(
        _ d: [Delivery], _ action: Action, at t: Int? = nil, tracker: Int? = nil,
        metrics: [(String, Int)] = [], _ attributes: [Attribute: AttributeValue] = [:], absent: [Attribute] = [],
        file: StaticString = #filePath, line: UInt = #line
    ) -> Event? {
        guard let event = d.last?.event else {
            XCTFail("expected \(action) event last, got \(d)", file: file, line: line)
            return nil
        }
        XCTAssertEqual(event.action.name, action.name, "action (deliveries: \(d))", file: file, line: line)
        let delivered = d.dropLast()
        let ms = delivered.compactMap(\.metric)
        XCTAssertEqual(
            ms.count, delivered.count, "an extra event was delivered before \(action): \(d)", file: file, line: line)
        XCTAssertEqual(
            ms.map { "\($0.name)=\($0.value)" }, metrics.map { "\($0.0)=\($0.1)" },
            "metrics before \(action)@\(event.timestamp)", file: file, line: line)
        for m in ms {
            XCTAssertEqual(m.timestamp, event.timestamp, "timestamp of metric \(m.name)", file: file, line: line)
            if let kind = Self.metricKinds[m.name] {
                XCTAssertEqual(m.kind, kind, "kind of metric \(m.name)", file: file, line: line)
            }
        }
        if let t { XCTAssertEqual(event.timestamp, t, "timestamp of \(action)", file: file, line: line) }
        if let tracker { XCTAssertEqual(event.trackerId, tracker, "tracker of \(action)", file: file, line: line) }
        expectStandardAttributes(event, file: file, line: line)
        check(event, attributes, absent: absent, file: file, line: line)
        return event
    }

    /// Every delivered event carries senderId, isAdsTracker and the hub stamps.
    func expectStandardAttributes(_ event: Event, file: StaticString = #filePath, line: UInt = #line) {
        var required: [Attribute] = [
            .countErrors, .countStarts, .accumPauseTime, .accumBufferTime, .accumSeekTime,
            .inPauseBlock, .inSeekBlock, .inBufferBlock, .inPlaybackBlock,
        ]
        if isAdsHub { required += [.inAdBreakBlock, .inAdBlock, .countAds] }
        if let position = expectedContentPosition {
            XCTAssertEqual(
                event[.position], .int(position), "content position on \(event.action)", file: file, line: line)
        }
        for attribute in required {
            XCTAssertNotNil(event[attribute], "\(event.action) lacks \(attribute)", file: file, line: line)
        }
        if let id = event.trackerId {
            XCTAssertEqual(event[.senderId], sender(id), "senderId of \(event.action)", file: file, line: line)
            if trackers.indices.contains(id) {
                XCTAssertEqual(
                    event[.isAdsTracker], .bool(trackers[id].isAds), "isAdsTracker of \(event.action)",
                    file: file, line: line)
            }
        } else {
            XCTFail("\(event.action) has no trackerId", file: file, line: line)
        }
    }

    /// Compares the listed attributes (ids by P/S name) and checks the absent ones are missing.
    func check(
        _ event: Event?, _ attributes: [Attribute: AttributeValue], absent: [Attribute] = [],
        file: StaticString = #filePath, line: UInt = #line
    ) {
        guard let event else { return XCTFail("no event to check", file: file, line: line) }
        for (attribute, expected) in attributes.sorted(by: { $0.key < $1.key }) {
            var actual = event[attribute]
            if attribute == .playbackId { actual = playbackName(actual?.stringValue).map { .string($0) } }
            if attribute == .streamId { actual = streamName(actual?.stringValue).map { .string($0) } }
            XCTAssertEqual(
                actual, expected, "\(event.action.name)@\(event.timestamp).\(attribute)", file: file, line: line)
        }
        for attribute in absent {
            XCTAssertNil(
                event[attribute], "\(event.action.name)@\(event.timestamp) must not carry \(attribute)",
                file: file, line: line)
        }
    }

    /// The event carries no time-since attribute at all.
    func expectNoTimeSince(_ event: Event?, file: StaticString = #filePath, line: UInt = #line) {
        let names = event?.attributes.keys.map(\.name).filter { $0.hasPrefix("timeSince") } ?? []
        XCTAssertEqual(names, [], "\(event?.action.name ?? "nil") must carry no timeSince*", file: file, line: line)
    }

    /// Timestamps of the Ping events in `d`, with the tracker that sent them.
    static func pings(_ d: [Delivery]) -> [String] {
        d.compactMap(\.event).filter { $0.action == .ping }.map { "\($0.timestamp)/\($0.trackerId ?? -1)" }
    }

    /// Splits deliveries into groups each ending with one event (its metrics first).
    static func groups(_ d: [Delivery]) -> [[Delivery]] {
        var out: [[Delivery]] = []
        var current: [Delivery] = []
        for delivery in d {
            current.append(delivery)
            if delivery.event != nil {
                out.append(current)
                current = []
            }
        }
        if !current.isEmpty { out.append(current) }
        return out
    }
}

/// Shorthand for a time-since attribute key: `ts(.start)` = "timeSinceStart".
func ts(_ action: Action) -> Attribute { action.timeAttribute }
