import AVTKPI
import AVTOutput

extension StartupBreakdown {
    /// The breakdown's requests as waterfall rows for `ReportSession.startupWaterfall`, in the
    /// breakdown's order: labelled by the URL's last path component (else the category),
    /// coloured by category; requests without both times are left out.
    package var waterfallRequests: [WaterfallRequest] {
        requests.compactMap { request in
            guard let start = request.start, let end = request.end else { return nil }
            let label =
                request.url.flatMap { $0.split(separator: "/").last.map(String.init) } ?? request.category.rawValue
            return WaterfallRequest(label: label, category: request.category.rawValue, start: start, end: end)
        }
    }
}
