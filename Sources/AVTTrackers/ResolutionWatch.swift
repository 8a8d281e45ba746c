import AVTCore
import AVTJSON

/// Upstream's resolution check (AVPlayer, ExoPlayer): the first reading with a non-zero width and
/// height only sets the baseline; after that a bigger area (width × height) is QualityChangeUp,
/// a smaller one QualityChangeDown, and every reading becomes the new baseline. A zero reading
/// after a baseline is a change down and makes the next reading a new baseline.
package struct ResolutionWatch: Equatable {
    private var lastWidth = 0
    private var lastHeight = 0

    mutating func check(width: Int, height: Int) -> Action? {
        defer {
            lastWidth = width
            lastHeight = height
        }
        guard lastWidth != 0, lastHeight != 0 else { return nil }
        // Full-width products: a timeline may carry any size, and the comparison must not trap.
        let last = lastWidth.multipliedFullWidth(by: lastHeight)
        let current = width.multipliedFullWidth(by: height)
        if (current.high, current.low) > (last.high, last.low) { return .qualityChangeUp }
        if (current.high, current.low) < (last.high, last.low) { return .qualityChangeDown }
        return nil
    }
}
