/// OpenAVT's bounded sample buffer: keeps at most `size` samples and refuses the rest.
public struct SampleBuffer: Sendable {
    /// The most samples it holds.
    public let size: Int
    /// The samples held, in insertion order.
    public private(set) var samples: [Sample] = []

    /// An empty buffer of at most `size` samples; `size` must not be negative.
    public init(size: Int) {
        precondition(size >= 0, "buffer size must not be negative")
        self.size = size
    }

    /// How many more samples fit.
    public var remaining: Int { size - samples.count }
    /// How many samples it holds.
    public var count: Int { samples.count }

    /// Appends the sample if there is room; returns false (the sample is lost) when full.
    @discardableResult
    public mutating func put(_ sample: Sample) -> Bool {
        guard remaining > 0 else { return false }
        samples.append(sample)
        return true
    }

    /// Replaces the sample at an existing index; returns false for an index out of range.
    @discardableResult
    public mutating func set(_ sample: Sample, at index: Int) -> Bool {
        guard samples.indices.contains(index) else { return false }
        samples[index] = sample
        return true
    }

    /// The sample at `index`, or nil for an index out of range.
    public func get(_ index: Int) -> Sample? {
        samples.indices.contains(index) ? samples[index] : nil
    }

    /// Everything, in insertion order; the buffer is empty afterwards.
    public mutating func retrieve() -> [Sample] {
        defer { samples.removeAll(keepingCapacity: true) }
        return samples
    }

    /// Everything sorted by timestamp. Upstream leaves ties to an unstable sort; ours is stable,
    /// so samples of one instant keep their delivery order (metrics before their event).
    public mutating func retrieveInOrder() -> [Sample] {
        let all = retrieve()
        return all.enumerated().sorted { ($0.element.timestamp, $0.offset) < ($1.element.timestamp, $1.offset) }
            .map(\.element)
    }
}
