/// One state of a playback's state history, as `kpi --states` lists it and `kpi --format json`
/// writes it (`history`): the state's name (docs/kpi.md: `joining`, `playing`, `buffering`…),
/// when it began and how long it lasted (the last until the end of the recording).
public struct StateHistoryEntry: Sendable, Equatable {
    /// The state's name.
    public let state: String
    /// When it began (ms of the timeline).
    public let t: Int
    /// How long it lasted (ms).
    public let durationMs: Int
}

/// One rendition switch of a playback: when, and the height and bitrate of the new format
/// (nil where the player did not say).
public struct FormatSwitch: Sendable, Equatable {
    /// When the format changed (ms of the timeline).
    public let t: Int
    /// The new format's height (px).
    public let height: Int?
    /// The new format's bitrate (bit/s).
    public let bitrate: Int?
}

extension SessionKPIs {
    /// The playback's state history; empty unless the session kept its spans (`keepSpans`).
    public func stateHistory(_ playbackId: String) -> [StateHistoryEntry] {
        guard let history = histories.first(where: { $0.id == playbackId }) else { return [] }
        return history.entries(end: end).map {
            StateHistoryEntry(state: $0.state.name, t: $0.t, durationMs: $0.durationMs)
        }
    }

    /// The playback's format switches; empty unless the session kept its spans (`keepSpans`).
    public func formatSwitches(_ playbackId: String) -> [FormatSwitch] {
        guard let history = histories.first(where: { $0.id == playbackId }) else { return [] }
        return (history.formats ?? []).map { FormatSwitch(t: $0.t, height: $0.height, bitrate: $0.bitrate) }
    }
}
