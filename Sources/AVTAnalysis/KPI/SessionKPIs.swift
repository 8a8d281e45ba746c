import AVTCore

/// KPIs of one session: one tally per playbackId, in order of first appearance. Events before
/// the first playbackId exists (TrackerInit, an early BufferBegin) belong to no playback.
public struct SessionKPIs: Sendable {
    public let session: String
    /// The AVMetrics events of the session's first avmetrics tracker, for the startup breakdown
    /// and the summary cross-check; nil without one.
    package var avmetrics: AVMetricsSessionLog?
    var order: [String] = []
    var tallies: [String: PlaybackTally] = [:]

    public init(session: String) { self.session = session }

    package mutating func add(_ observation: KPIObservation) {
        // Metrics carry no playbackId; the KPIs come from the events, which carry everything.
        guard !observation.isMetric, let id = observation.playbackId else { return }
        if tallies[id] == nil { order.append(id) }
        tallies[id, default: PlaybackTally()].add(observation)
    }

    public var playbackIds: [String] { order }

    public func playback(_ id: String, definitions: KPIDefinitions) -> [KPI] {
        tallies[id]?.values(definitions) ?? []
    }

    /// Sums over the session's playbacks: counts and times added, ratios recomputed from the
    /// sums, flags counted (number of playbacks started, exited before start, failed), startup
    /// time the mean over started playbacks.
    public func totals(definitions: KPIDefinitions) -> [KPI] {
        var sum = PlaybackTally()
        var started = 0
        var exits = 0
        var failed = 0
        var startups: [Int] = []
        for id in order {
            guard let tally = tallies[id] else { continue }
            sum.merge(tally)
            let values = tally.values(definitions)
            if values[name: "started"] == .bool(true) { started += 1 }
            if values[name: "exitBeforeVideoStart"] == .bool(true) { exits += 1 }
            if values[name: "playbackFailed"] == .bool(true) { failed += 1 }
            if let startup = tally.startupTime(definitions) { startups.append(startup) }
        }
        let meanStartup =
            startups.isEmpty ? nil : Self.roundedMean(startups)
        return sum.rendered(
            definitions: definitions, startup: meanStartup, started: .int(started), exitBeforeStart: .int(exits),
            failed: .int(failed))
    }

    /// The mean of `values`, rounded, summed in floating point so no input overflows it.
    static func roundedMean(_ values: [Int]) -> Int {
        let mean = (values.reduce(0.0) { $0 + Double($1) } / Double(values.count)).rounded()
        return Int(exactly: mean) ?? (mean > 0 ? .max : .min)
    }
}
