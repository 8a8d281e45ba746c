/// The format sums of one playback's `FormatTimes`, or of several added together: the time
/// PLAYING at a known height and bitrate with its products, and the initial height and bitrate
/// with how many playbacks have one.
struct FormatFigures: Sendable {
    var heightTime = 0, heightProduct = 0, bitrateTime = 0, bitrateProduct = 0
    var initialHeight = 0, initialHeightCount = 0, initialBitrate = 0, initialBitrateCount = 0

    init() {}

    /// `initial`: whether the playback's first format is known (not when the recording began
    /// after its start).
    init(_ times: FormatTimes, initial: Bool) {
        heightTime = times.heightTime
        heightProduct = times.heightProduct
        bitrateTime = times.bitrateTime
        bitrateProduct = times.bitrateProduct
        guard initial else { return }
        if let height = times.initialHeight {
            initialHeight = height
            initialHeightCount = 1
        }
        if let bitrate = times.initialBitrate {
            initialBitrate = bitrate
            initialBitrateCount = 1
        }
    }

    mutating func merge(_ o: FormatFigures) {
        func add(_ a: inout Int, _ b: Int) { a = a.saturatingAdding(b) }
        add(&heightTime, o.heightTime)
        add(&heightProduct, o.heightProduct)
        add(&bitrateTime, o.bitrateTime)
        add(&bitrateProduct, o.bitrateProduct)
        add(&initialHeight, o.initialHeight)
        add(&initialHeightCount, o.initialHeightCount)
        add(&initialBitrate, o.initialBitrate)
        add(&initialBitrateCount, o.initialBitrateCount)
    }
}
