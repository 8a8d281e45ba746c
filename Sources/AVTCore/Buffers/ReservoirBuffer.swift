/// OpenAVT's reservoir buffer (Algorithm R, as on iOS): once full, each new sample
/// replaces a uniformly chosen slot with probability size/seen, so a long replay keeps an
/// unbiased sample of bounded size. The random source is injected so tests are repeatable.
public struct ReservoirBuffer<Source: RandomNumberGenerator> {
    /// The samples kept so far, one per slot.
    public private(set) var buffer: SampleBuffer
    private var samplingIndex: Int
    private var random: Source

    /// An empty reservoir of at most `size` samples that draws its slots from `random`.
    public init(size: Int, random: Source) {
        self.buffer = SampleBuffer(size: size)
        self.samplingIndex = size
        self.random = random
    }

    /// How many samples are kept.
    public var count: Int { buffer.count }
    /// The most samples it keeps.
    public var size: Int { buffer.size }

    /// Returns whether the sample was kept (appended or written over a slot).
    @discardableResult
    public mutating func put(_ sample: Sample) -> Bool {
        if buffer.put(sample) { return true }
        guard buffer.size > 0 else { return false }
        let slot = Int.random(in: 0..<samplingIndex, using: &random)
        samplingIndex += 1
        guard slot < buffer.size else { return false }
        return buffer.set(sample, at: slot)
    }

    /// Every kept sample in slot order; empties the reservoir and restarts the sampling.
    public mutating func retrieve() -> [Sample] {
        samplingIndex = buffer.size
        return buffer.retrieve()
    }

    /// Every kept sample sorted by timestamp, ties in slot order; empties the reservoir and
    /// restarts the sampling.
    public mutating func retrieveInOrder() -> [Sample] {
        samplingIndex = buffer.size
        return buffer.retrieveInOrder()
    }
}

extension ReservoirBuffer where Source == SystemRandomNumberGenerator {
    /// An empty reservoir of at most `size` samples that draws from the system's random source.
    public init(size: Int) { self.init(size: size, random: SystemRandomNumberGenerator()) }
}
