/// A KPI's name: the JSON contract's camelCase key. The typed names (`KPIName.startupTime`, …)
/// make a lookup a compile-time check: `playback[.startupTime]` where a string would quietly
/// return nil on a typo.
public struct KPIName: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The camelCase key, as every output names the KPI.
    public let rawValue: String

    /// A name; any string is accepted, but only `allNames` are ever computed.
    public init(rawValue: String) { self.rawValue = rawValue }

    init(_ rawValue: String) { self.rawValue = rawValue }

    /// The key itself.
    public var description: String { rawValue }

    /// The unit, as `units` gives it.
    public var unit: String { Self.units[rawValue] ?? "count" }

    /// Every KPI, typed: `all`, then the shaka set's own.
    public static let allNames = (all + shakaOnly).map(KPIName.init(rawValue:))

    /// Every KPI's key in output order (tables, CSV columns and JSON members come in this order).
    public static let all = [
        "startupTime", "startTimeMetric", "started", "exitBeforeVideoStart", "ended", "abandoned", "startupErrors",
        "playbackFailed", "errorCount", "fatalErrorCount", "nonFatalErrorCount", "playTime", "pauseTime",
        "pauseCount", "seekTime", "seekCount", "meanSeekTime", "meanSeekLatency", "waitTime", "bufferTime",
        "watchTime", "rebufferCount",
        "rebufferTime", "maxRebufferTime", "meanRebufferTime", "rebufferRatio", "rebufferFrequency", "qualityUpCount",
        "qualityDownCount", "initialVideoBitrate", "averageBitrate", "initialVideoHeight", "averageResolutionHeight",
        "droppedFrames", "meanBandwidth", "adBreakCount", "adCount", "adCompletedCount", "adSkippedCount", "adTime",
        "plays", "ends",
        "requests", "loads",
    ]

    /// The KPIs a playback's state history alone determines, in every definition set: its times,
    /// counts, ratios and the flags its states say (started, ended, abandoned). A history read
    /// back from `kpi --format json` gives these again (docs/kpi.md); the others also need what
    /// the trackers said beside the states (requests, errors, formats, ads).
    package static let fromStateHistory = [
        "started", "ended", "abandoned", "playTime", "pauseTime", "pauseCount", "seekTime", "seekCount",
        "meanSeekTime", "meanSeekLatency", "waitTime", "bufferTime", "watchTime", "rebufferCount", "rebufferTime",
        "maxRebufferTime",
        "meanRebufferTime", "rebufferRatio", "rebufferFrequency",
    ]

    /// The unit of each KPI: `ms`; `flag` (a playback's true/false, a number of playbacks in
    /// totals); `count`; `ratio` (a fraction, 0 to 1); `1/min`; `bit/s`; `px`.
    public static let units: [String: String] = {
        var units: [String: String] = [:]
        for name in [
            "startupTime", "startTimeMetric", "playTime", "pauseTime", "seekTime", "meanSeekTime", "meanSeekLatency",
            "waitTime",
            "bufferTime", "watchTime", "rebufferTime", "maxRebufferTime", "meanRebufferTime", "adTime",
            "bufferingTime", "loadLatency",
        ] {
            units[name] = "ms"
        }
        for name in ["started", "exitBeforeVideoStart", "ended", "abandoned", "playbackFailed"] { units[name] = "flag" }
        units["rebufferRatio"] = "ratio"
        units["completionPercent"] = "%"
        units["rebufferFrequency"] = "1/min"
        units["initialVideoBitrate"] = "bit/s"
        units["averageBitrate"] = "bit/s"
        units["meanBandwidth"] = "bit/s"
        units["initialVideoHeight"] = "px"
        units["averageResolutionHeight"] = "px"
        for name in all + shakaOnly where units[name] == nil { units[name] = "count" }
        return units
    }()

    /// `name (unit)`, as table and CSV headers name a KPI.
    public static func labelled(_ name: String) -> String { "\(name) (\(units[name] ?? "count"))" }
}
