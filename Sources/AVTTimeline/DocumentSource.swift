/// A timeline already in memory.
public struct DocumentSource: TimelineSource {
    public let name: String
    public let settings: TimelineSettings
    private var steps: IndexingIterator<[Step]>

    public init(_ timeline: Timeline, name: String) {
        self.name = name
        self.settings = timeline.settings
        self.steps = timeline.steps.makeIterator()
    }

    public mutating func nextStep() throws(TimelineError) -> Step? { steps.next() }
}
