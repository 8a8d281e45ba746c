/// One bar of a startup waterfall: a request (playlist, key, segment…) and when it ran, in ms on
/// any clock shared by the list (the waterfall starts at the earliest `start`).
///
/// This is the report's extension point for an AVMetrics startup breakdown: whoever builds one
/// sets `ReportSession.startupWaterfall`, and the writer draws it above the timeline.
package struct WaterfallRequest: Sendable, Equatable {
    package var label: String
    /// Groups bars by colour (for example `playlist`, `media`, `key`, `content-key`); colours are
    /// given to categories in order of first appearance.
    package var category: String
    package var start: Int
    package var end: Int

    package init(label: String, category: String, start: Int, end: Int) {
        self.label = label
        self.category = category
        self.start = start
        self.end = max(start, end)
    }
}
