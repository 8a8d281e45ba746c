import AVTJSON
import AVTTrackers

/// One network request of an AVMetrics session (a playlist, media segment or content key
/// request with its AVMetricMediaResourceRequestEvent), with its times on the virtual clock.
package struct AVMetricsRequest: Sendable, Equatable {
    package enum Category: String, Sendable, CaseIterable {
        case playlist, contentKey, mediaSegment
        /// A bare AVMetricMediaResourceRequestEvent.
        case other
    }

    package var category: Category
    package var url: String?
    package var mediaType: String?
    /// Playlists only.
    package var isMultivariantPlaylist: Bool?
    /// `requestStartTime`, ms since the timeline's start.
    package var start: Int?
    /// `responseEndTime`, else `requestEndTime` (a request that got no response), ms.
    package var end: Int?
    package var serverAddress: String?
    package var wasReadFromCache: Bool?
    /// The HTTP status of the last transaction's response (`networkTransactionMetrics`).
    package var httpStatus: Int?
    /// The request's `errorEvent`, as one line.
    package var errorDescription: String?

    package init(category: Category, url: String? = nil, start: Int? = nil, end: Int? = nil) {
        self.category = category
        self.url = url
        self.start = start
        self.end = end
    }

    /// end − start, when both are known.
    package var duration: Int? {
        guard let start, let end else { return nil }
        return end - start
    }

    /// It carries an error event, or its response has an HTTP status ≥ 400.
    package var failed: Bool { errorDescription != nil || (httpStatus ?? 0) >= 400 }

    /// The same request seen twice (standalone, and inside the initial likely-to-keep-up event).
    var identity: String { "\(category.rawValue) \(url ?? "") \(start.map(String.init) ?? "")" }

    /// From a request event record; dates become ms since `startTime`.
    init?(_ record: AVMetricsRecord, startTime: Int) {
        switch record.event {
        case AVMetricsSchema.playlistRequest: category = .playlist
        case AVMetricsSchema.mediaSegmentRequest: category = .mediaSegment
        case AVMetricsSchema.contentKeyRequest: category = .contentKey
        case AVMetricsSchema.mediaResourceRequest: category = .other
        default: return nil
        }
        let resource =
            category == .other
            ? record
            : record["mediaResourceRequestEvent"].map {
                AVMetricsRecord(className: AVMetricsSchema.mediaResourceRequest, object: $0)
            }
        func time(_ key: String) -> Int? { resource?[key].flatMap(AVMetricsValue.date).map { $0 - startTime } }
        url = record["url"].flatMap(PlayerValue.string) ?? resource?["url"].flatMap(PlayerValue.string)
        mediaType = record["mediaType"].flatMap(PlayerValue.string)
        isMultivariantPlaylist = record.bool("isMultivariantPlaylist")
        start = time("requestStartTime")
        end = time("responseEndTime") ?? time("requestEndTime")
        serverAddress = resource?["serverAddress"].flatMap(PlayerValue.string)
        wasReadFromCache = resource?.bool("wasReadFromCache")
        if let errorEvent = resource?["errorEvent"] {
            errorDescription =
                PlayerValue.member("error", of: errorEvent).flatMap(AVMetricsValue.errorDescription) ?? "error"
        }
        if case .array(let transactions)? = resource?["networkTransactionMetrics"].flatMap({
            PlayerValue.member("transactionMetrics", of: $0)
        }) {
            httpStatus = transactions.last
                .flatMap { PlayerValue.member("response", of: $0.value) }
                .flatMap { PlayerValue.member("statusCode", of: $0) }
                .flatMap(PlayerValue.integer)
        }
    }
}
