import AVTCore

/// A backend that feeds the KPI calculator during a replay, so KPIs need no output file and
/// memory stays constant.
public final class KPIBackend: Backend {
    public private(set) var kpis: SessionKPIs

    public init(session: String) { kpis = SessionKPIs(session: session) }

    public func sendEvent(_ event: Event) { kpis.add(KPIObservation(event: event)) }
    public func sendMetric(_ metric: Metric) {}
}
