import AVTTimeline

extension PreCallTest {
    /// Runs the test on the `observe` steps of one `netstats` tracker of a timeline (streamed, so
    /// a recording of any length is fine). Other trackers' steps, and actions, are ignored; steps
    /// after the timeline's `until` are not read, as a replay does not play them.
    ///
    /// - Parameter subscriber: the tracker's name; nil picks the timeline's only netstats tracker.
    package static func run(
        _ source: inout some TimelineSource, subscriber: String?, criteria: PreCallCriteria
    ) throws(TimelineError) -> PreCallTest {
        let index = try netStatsTracker(of: source, named: subscriber)
        var test = PreCallTest(criteria: criteria)
        let until = source.settings.until
        while let step = try source.nextStep() {
            // As in a replay, the timeline ends at `until`.
            if let until, step.t > until { break }
            guard step.tracker == index, !step.observe.isEmpty else { continue }
            test.add(t: step.t, observations: step.observe)
        }
        return test
    }

    /// The index of the netstats tracker the test reads.
    static func netStatsTracker(of source: some TimelineSource, named subscriber: String?) throws(TimelineError) -> Int
    {
        let trackers = source.settings.trackers
        let candidates = trackers.indices.filter { trackers[$0].kind == .netstats }
        let names = candidates.map { "\"\(trackers[$0].name)\"" }.joined(separator: ", ")
        if let subscriber {
            guard let index = candidates.first(where: { trackers[$0].name == subscriber }) else {
                throw TimelineError(
                    file: source.name, path: "trackers",
                    message: "no tracker of kind netstats named \"\(subscriber)\""
                        + (candidates.isEmpty ? "" : ": expected one of \(names)"))
            }
            return index
        }
        guard let first = candidates.first else {
            throw TimelineError(
                file: source.name, path: "trackers",
                message:
                    "no tracker of kind netstats: expected one, e.g. {\"name\": \"subscriber\", \"kind\": \"netstats\"}"
            )
        }
        guard candidates.count == 1 else {
            throw TimelineError(
                file: source.name, path: "trackers",
                message: "\(candidates.count) trackers of kind netstats (\(names)): choose one with --subscriber NAME")
        }
        return first
    }
}
