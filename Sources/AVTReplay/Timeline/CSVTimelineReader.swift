// Placeholder until the CSV reader lands: CSV timelines are refused with a clear message.
public struct CSVTimelineReader: TimelineSource {
    public let name: String
    public let settings = TimelineSettings()

    public init(_ input: ByteInput, trackers: [TrackerSpec]) throws(TimelineError) {
        name = input.name
        throw TimelineError(file: input.name, message: "CSV timelines are not supported yet")
    }

    public mutating func nextStep() throws(TimelineError) -> Step? { nil }
}
