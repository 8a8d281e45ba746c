import AVTFormats
import AVTJSON

/// An AVAssetVariant as far as OpenAVT cares: bitrates (bps) and picture size.
package struct AVMetricsVariant: Sendable, Equatable {
    package var peakBitRate: Double?
    package var averageBitRate: Double?
    package var width: Double?
    package var height: Double?
    package var frameRate: Double?

    package init(peakBitRate: Double? = nil, averageBitRate: Double? = nil, width: Double? = nil, height: Double? = nil)
    {
        self.peakBitRate = peakBitRate
        self.averageBitRate = averageBitRate
        self.width = width
        self.height = height
    }

    init(_ value: JSONValue) {
        peakBitRate = PlayerValue.member("peakBitRate", of: value).flatMap(PlayerValue.number)
        averageBitRate = PlayerValue.member("averageBitRate", of: value).flatMap(PlayerValue.number)
        let attributes = PlayerValue.member("videoAttributes", of: value)
        let size =
            (PlayerValue.member("presentationSize", of: value)
            ?? attributes.flatMap { PlayerValue.member("presentationSize", of: $0) })
            .flatMap(PlayerValue.size)
        width = size?.width
        height = size?.height
        frameRate = attributes.flatMap { PlayerValue.member("nominalFrameRate", of: $0) }.flatMap(PlayerValue.number)
    }

    /// The bitrate the tracker reports and compares: the average (HLS AVERAGE-BANDWIDTH) when
    /// known, else the peak (BANDWIDTH).
    package var bitrate: Double? { averageBitRate ?? peakBitRate }

    /// Whether `self` is a higher (+1), lower (−1) or the same (0) quality as `other`: by the
    /// bitrate both know (average if both have it, else peak), then by picture area; nil when
    /// nothing is comparable.
    func compare(to other: AVMetricsVariant) -> Int? {
        let pair: (Double, Double)? =
            if let a = averageBitRate, let b = other.averageBitRate {
                (a, b)
            } else if let a = peakBitRate, let b = other.peakBitRate { (a, b) } else { nil }
        if let pair, pair.0 != pair.1 { return pair.0 > pair.1 ? 1 : -1 }
        if let w = width, let h = height, let ow = other.width, let oh = other.height, w * h != ow * oh {
            return w * h > ow * oh ? 1 : -1
        }
        return pair == nil && (width == nil || other.width == nil) ? nil : 0
    }
}
