import AVTOutput
import Foundation

/// Where remote-write requests go: `prometheus://HOST[:PORT][/PATH]` (plain HTTP) or
/// `prometheus+https://…`. The port defaults to Prometheus' 9090 and the path to its receiver,
/// `/api/v1/write`; VictoriaMetrics takes the same requests on its own port, 8428, at the same path.
package struct PrometheusDestination: Sendable, CustomStringConvertible {
    package let description: String
    let writeURL: URL
    /// What the server stores (`--prometheus-window`).
    package let window: PrometheusWindow
    /// The headers remote write 1.0 requires.
    static let headers = [
        "Content-Type": "application/x-protobuf", "Content-Encoding": "snappy",
        "X-Prometheus-Remote-Write-Version": "0.1.0", "User-Agent": "avtreplay",
    ]

    package init(_ text: String, window: PrometheusWindow) throws(OutputError) {
        func bad(_ why: String) -> OutputError { OutputError(path: text, message: why, isBrokenPipe: false) }
        let schemes = ["prometheus": "http", "prometheus+https": "https"]
        guard let url = URLComponents(string: text), let scheme = url.scheme, let transport = schemes[scheme] else {
            throw bad("expected prometheus://HOST[:PORT][/PATH] or prometheus+https://HOST[:PORT][/PATH]")
        }
        guard let host = url.host, !host.isEmpty else { throw bad("missing host") }
        var write = URLComponents()
        write.scheme = transport
        write.host = host
        write.port = url.port ?? 9090
        write.path = url.path.isEmpty || url.path == "/" ? "/api/v1/write" : url.path
        write.percentEncodedQuery = url.percentEncodedQuery
        guard let writeURL = write.url else { throw bad("not a valid address") }
        self.writeURL = writeURL
        self.description = text
        self.window = window
    }
}
