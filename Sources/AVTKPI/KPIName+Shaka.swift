extension KPIName {
    /// The `shaka` set's own KPIs, beyond `all`: Shaka Player's `getStats()` fields.
    package static let shakaOnly = ["bufferingTime", "loadLatency", "completionPercent"]

    /// The KPIs a definition set reports, in output order: the shaka set gives `getStats()`'s
    /// times, load latency and completion; the others give `all`.
    package static func names(_ definitions: KPIDefinitions) -> [String] {
        definitions == .shaka ? ["playTime", "pauseTime"] + shakaOnly : all
    }
}
