import AVTCore

/// How OpenAVT events become Mediastream events: the ids the command line fixes, the collector's
/// report period and session timeout, and where the wall clock starts.
package struct MediastreamOptions: Sendable, Equatable {
    /// `--mediastream-content-id`: wins over the events' `contentId` attribute.
    package var contentId: String?
    /// `--mediastream-unique-id`: wins over the events' `uniqueId` attribute and the instrument id.
    package var uniqueId: String?
    /// The collector reports every 10 s of virtual time from play start.
    package var reportInterval = 10_000
    /// A session expires after 30 minutes without events.
    package var sessionTimeout = 30 * 60 * 1000
    /// Epoch milliseconds of virtual t=0, for `timestamp`.
    package var startTime = 0
    /// The input's path when a run replays several inputs. Every input replays with the same
    /// seeded ids, so this is mixed into the derived ids to keep inputs apart at the collector.
    package var input: String?

    package init(contentId: String? = nil, uniqueId: String? = nil) {
        self.contentId = contentId
        self.uniqueId = uniqueId
    }
}
