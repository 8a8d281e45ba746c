import AVTOutput

/// How records are shaped for each wire format, shared by the stream (`--format influx`, …) and
/// the servers (`--to influxdb://`, …), so a file and a server get the same lines.
package struct OutputEncoders: Sendable {
    package var influx = InfluxLineEncoder()
    package var graphite = GraphiteEncoder()
    /// The ids the command line fixes; `mediastreamOptions(for:)` completes them per session.
    package var mediastream = MediastreamOptions()

    package init() {}

    /// `--influx-measurements events,metrics`: nil unless exactly two names.
    package static func influxMeasurements(_ text: String) -> (events: String, metrics: String)? {
        let names = text.split(separator: ",").map(String.init)
        return names.count == 2 ? (names[0], names[1]) : nil
    }

    /// `--influx-tags a,b`: blanks around names and empty names dropped.
    package static func influxTags(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// The Mediastream options of one session: its clock and, for several inputs, its path.
    package func mediastreamOptions(for records: RecordEncoder) -> MediastreamOptions {
        var options = mediastream
        options.startTime = records.startTime
        options.input = records.session
        return options
    }
}
