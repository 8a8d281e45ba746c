import AVTCore
import AVTOutput
import Foundation

/// `mediastream+http://HOST[:PORT]/PATH` or `mediastream+https://…`: a collector endpoint that
/// takes Mediastream events as a JSON array per POST.
package struct MediastreamDestination: Sendable, CustomStringConvertible {
    package let description: String
    let url: URL

    package init(_ text: String) throws(OutputError) {
        func bad(_ why: String) -> OutputError { OutputError(path: text, message: why) }
        guard let parsed = URLComponents(string: text), let scheme = parsed.scheme,
            scheme == "mediastream+http" || scheme == "mediastream+https"
        else { throw bad("expected mediastream+http://HOST/PATH or mediastream+https://HOST/PATH") }
        guard let host = parsed.host, !host.isEmpty else { throw bad("missing host") }
        var target = parsed
        target.scheme = scheme == "mediastream+https" ? "https" : "http"
        guard let url = target.url else { throw bad("not a valid address") }
        self.description = text
        self.url = url
    }
}
