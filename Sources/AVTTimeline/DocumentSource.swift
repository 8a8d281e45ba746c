/// A timeline already in memory.
public struct DocumentSource: TimelineSource {
    public let name: String
    /// The timeline's settings.
    public let settings: TimelineSettings
    private var steps: IndexingIterator<[Step]>

    /// A source of `timeline`'s steps; `name` goes into its errors.
    public init(_ timeline: Timeline, name: String) {
        self.name = name
        self.settings = timeline.settings
        self.steps = timeline.steps.makeIterator()
    }

    public mutating func nextStep() throws(TimelineError) -> Step? { steps.next() }
}
