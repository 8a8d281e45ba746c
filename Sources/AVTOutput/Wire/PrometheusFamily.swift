import AVTCore

/// One Prometheus metric family avtreplay writes: its name, type and unit, and where its samples
/// come from. `docs/prometheus.md` is this table for readers; the two must say the same.
///
/// Names follow Prometheus' conventions: snake_case, the `oavt_` prefix, base units (seconds,
/// not the milliseconds OpenAVT counts in), and `_total` on a counter's samples (the family name
/// itself has no `_total`, as OpenMetrics wants).
package struct PrometheusFamily: Sendable, Equatable {
    package enum Kind: String, Sendable {
        case counter, gauge, histogram
    }

    /// The family name (`oavt_events` for the samples `oavt_events_total`).
    package let name: String
    package let kind: Kind
    /// `seconds`, `bytes`…; empty for none.
    package let unit: String
    package let help: String

    /// The name every sample of the family carries (a histogram's samples add `_bucket`, `_count`
    /// and `_sum` to it).
    package var sampleName: String { kind == .counter ? name + "_total" : name }

    init(_ name: String, _ kind: Kind, unit: String = "", _ help: String) {
        (self.name, self.kind, self.unit, self.help) = (name, kind, unit, help)
    }

    // MARK: Events

    /// Every event, counted per action and tracker: the value is how many events of that action
    /// the tracker has sent so far in the session.
    package static let events = PrometheusFamily(
        "oavt_events", .counter, "OpenAVT events sent, per action and tracker")

    /// How long the interval an event closes lasted: the event's `timeSince<Begin>` attribute, in
    /// seconds, sampled at the event (labels: tracker).
    package struct Interval: Sendable {
        package let action: Action
        /// The attributes that hold the interval, the first present wins (Start: the time since
        /// MediaRequest, else since StreamLoad, as OpenAVT's StartTime metric).
        package let attributes: [Attribute]
        package let family: PrometheusFamily
    }

    /// Startups, per tracker, as a histogram: a gauge folds two equal startups of one instant
    /// into one sample, and a quantile over gauges is a quantile over samples, not over plays.
    /// Each Start whose `timeSinceMediaRequest` (else `timeSinceStreamLoad`) is set is one
    /// observation: the Starts OpenAVT's StartTime metric is made from.
    package struct Distribution: Sendable {
        package let action: Action
        package let attributes: [Attribute]
        /// Upper bounds in milliseconds (the attributes' unit), +Inf not included.
        package let bounds: [Int]
        package let family: PrometheusFamily
    }

    /// Buckets a video team reads startups in: a quarter second to 16 s, doubling.
    package static let startup = Distribution(
        action: .start, attributes: ["timeSinceMediaRequest", "timeSinceStreamLoad"],
        bounds: [250, 500, 1000, 2000, 4000, 8000, 16000],
        family: .init(
            "oavt_startup_duration_seconds", .histogram, unit: "seconds",
            "Time from MediaRequest (else StreamLoad) to Start, per tracker"))

    package static let intervals: [Interval] = [
        Interval(
            action: .bufferFinish, attributes: ["timeSinceBufferBegin"],
            family: .init(
                "oavt_buffer_duration_seconds", .gauge, unit: "seconds",
                "Length of a buffering, at its BufferFinish, per tracker")),
        Interval(
            action: .seekFinish, attributes: ["timeSinceSeekBegin"],
            family: .init(
                "oavt_seek_duration_seconds", .gauge, unit: "seconds",
                "Length of a seek, at its SeekFinish, per tracker")),
        Interval(
            action: .pauseFinish, attributes: ["timeSincePauseBegin"],
            family: .init(
                "oavt_pause_duration_seconds", .gauge, unit: "seconds",
                "Length of a pause, at its PauseFinish, per tracker")),
        Interval(
            action: .adBreakFinish, attributes: ["timeSinceAdBreakBegin"],
            family: .init(
                "oavt_ad_break_duration_seconds", .gauge, unit: "seconds",
                "Length of an ad break, at its AdBreakFinish, per tracker")),
        Interval(
            action: .adFinish, attributes: ["timeSinceAdBegin"],
            family: .init(
                "oavt_ad_duration_seconds", .gauge, unit: "seconds",
                "Time from AdBegin to AdFinish, per tracker")),
    ]

    /// A numeric attribute whose value is the player's state when the event happened, sampled at
    /// every event that carries it (labels: tracker).
    package struct State: Sendable {
        package let attribute: Attribute
        /// What the attribute's value is divided by (1000: milliseconds to seconds). A division,
        /// not a multiplication by 0.001, so 1150 ms prints as 1.15 rather than 1.1500000000000001.
        package let divisor: Double
        package let family: PrometheusFamily
    }

    package static let states: [State] = [
        State(
            // Bytes, not bits: Prometheus' base unit for data, so the bitrate sits beside other
            // byte rates (a network's `_bytes_total`) without a conversion in the query.
            attribute: .bitrate, divisor: 8,
            family: .init(
                "oavt_bitrate_bytes_per_second", .gauge, unit: "bytes_per_second",
                "Bitrate of the rendition playing, in bytes per second, per tracker")),
        State(
            attribute: .resolutionHeight, divisor: 1,
            family: .init(
                "oavt_resolution_height_pixels", .gauge, "Height of the rendition playing, per tracker")),
        State(
            attribute: .resolutionWidth, divisor: 1,
            family: .init("oavt_resolution_width_pixels", .gauge, "Width of the rendition playing, per tracker")),
        State(
            attribute: .position, divisor: 1000,
            family: .init(
                "oavt_position_seconds", .gauge, unit: "seconds", "Content playhead at the event, per tracker")),
        State(
            attribute: .duration, divisor: 1000,
            family: .init(
                "oavt_media_duration_seconds", .gauge, unit: "seconds", "Length of the content, per tracker")),
    ]

    /// The hub's running totals, stamped on every event and shared by all trackers of a
    /// session: counters with no tracker label.
    package struct Total: Sendable {
        package let attribute: Attribute
        package let family: PrometheusFamily
    }

    package static let totals: [Total] = [
        Total(
            attribute: .accumBufferTime,
            family: .init(
                "oavt_buffered_seconds", .counter, unit: "seconds", "Time spent buffering (the hub's accumBufferTime)")),
        Total(
            attribute: .accumPauseTime,
            family: .init(
                "oavt_paused_seconds", .counter, unit: "seconds", "Time spent paused (the hub's accumPauseTime)")),
        Total(
            attribute: .accumSeekTime,
            family: .init(
                "oavt_seeking_seconds", .counter, unit: "seconds", "Time spent seeking (the hub's accumSeekTime)")),
    ]

    // MARK: Metrics

    /// OpenAVT's metrics (MetricalcCore's), by metric name: gauges in milliseconds become gauges
    /// in seconds; counters (1 per occurrence) become cumulative counters.
    package static let metrics: [String: PrometheusFamily] = [
        "StartTime": .init(
            "oavt_start_time_seconds", .gauge, unit: "seconds", "OpenAVT StartTime metric: startup of a play"),
        "RebufferTime": .init(
            "oavt_rebuffer_time_seconds", .gauge, unit: "seconds", "OpenAVT RebufferTime metric: length of a rebuffer"),
        "PlayTime": .init(
            "oavt_play_time_seconds", .gauge, unit: "seconds",
            "OpenAVT PlayTime metric: time played since the hub's previous event"),
        "NumPlays": .init("oavt_plays", .counter, "OpenAVT NumPlays metric: accepted Starts"),
        "NumRebuffers": .init("oavt_rebuffers", .counter, "OpenAVT NumRebuffers metric: rebuffers"),
        "NumRequests": .init("oavt_requests", .counter, "OpenAVT NumRequests metric: accepted MediaRequests"),
        "NumLoads": .init("oavt_loads", .counter, "OpenAVT NumLoads metric: accepted StreamLoads"),
        "NumEnds": .init("oavt_ends", .counter, "OpenAVT NumEnds metric: accepted End, Stop and Next"),
    ]

    /// Running totals of OpenAVT's per-interval gauges, beside them: `PlayTime` and
    /// `RebufferTime` are the time since the previous event and the length of one rebuffer, so a
    /// dashboard would need `sum_over_time`; these counters take `increase()` and `rate()`.
    package static let cumulative: [String: PrometheusFamily] = [
        "PlayTime": .init(
            "oavt_played_seconds", .counter, unit: "seconds", "Time played: the running sum of OpenAVT's PlayTime"),
        "RebufferTime": .init(
            "oavt_rebuffered_seconds", .counter, unit: "seconds",
            "Time rebuffering: the running sum of OpenAVT's RebufferTime"),
    ]

    /// The family of a metric no table names (a custom metricalc's): `oavt_` and the name in
    /// snake_case, `_total` on counters, the value as it is (its unit is unknown).
    package static func custom(metric name: String, kind: Metric.Kind) -> PrometheusFamily {
        let family = "oavt_" + snakeCase(name)
        return kind == .counter
            ? .init(family, .counter, "custom counter \(name)") : .init(family, .gauge, "custom gauge \(name)")
    }

    /// `StartTime` → `start_time`, `HTTPCode` → `http_code`; anything outside `[A-Za-z0-9_]`
    /// becomes `_`, so the result is a valid metric name piece.
    package static func snakeCase(_ name: String) -> String {
        let scalars = Array(name.unicodeScalars)
        var out = ""
        for (i, scalar) in scalars.enumerated() {
            let isUpper = ("A"..."Z").contains(scalar)
            if isUpper, i > 0 {
                let previousLower = ("a"..."z").contains(scalars[i - 1]) || ("0"..."9").contains(scalars[i - 1])
                let nextLower = i + 1 < scalars.count && ("a"..."z").contains(scalars[i + 1])
                let previousUpper = ("A"..."Z").contains(scalars[i - 1])
                if previousLower || (previousUpper && nextLower) { out += "_" }
            }
            switch scalar {
            case "A"..."Z": out += String(scalar).lowercased()
            case "a"..."z", "0"..."9", "_": out.unicodeScalars.append(scalar)
            default: out += "_"
            }
        }
        return out.isEmpty ? "_" : out
    }

    /// Every family of the table, in the order `--format openmetrics` describes them.
    package static let known: [PrometheusFamily] =
        [events, startup.family] + intervals.map(\.family) + states.map(\.family) + totals.map(\.family)
        + ["StartTime", "RebufferTime", "PlayTime", "NumPlays", "NumRebuffers", "NumRequests", "NumLoads", "NumEnds"]
        .map { metrics[$0]! } + ["PlayTime", "RebufferTime"].map { cumulative[$0]! }
}
