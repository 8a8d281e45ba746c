import AVTOutput
/// How records are shaped for each wire format, shared by the stream (`--format influx`, …) and
/// the servers (`--to influxdb://`, …), so a file and a server get the same lines.
public struct OutputEncoders: Sendable {
    public var influx = InfluxLineEncoder()
    public var graphite = GraphiteEncoder()
    /// The ids the command line fixes; `mediastreamOptions(for:)` completes them per session.
    public var mediastream = MediastreamOptions()

    public init() {}

    /// `--influx-measurements events,metrics`: nil unless exactly two names.
    public static func influxMeasurements(_ text: String) -> (events: String, metrics: String)? {
        let names = text.split(separator: ",").map(String.init)
        return names.count == 2 ? (names[0], names[1]) : nil
    }

    /// `--influx-tags a,b`: blanks around names and empty names dropped.
    public static func influxTags(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// The Mediastream options of one session: its clock and, for several inputs, its path.
    public func mediastreamOptions(for records: RecordEncoder) -> MediastreamOptions {
        var options = mediastream
        options.startTime = records.startTime
        options.input = records.session
        return options
    }
}
