import AVTOutput
import Foundation

/// Where InfluxDB writes go:
/// - `influxdb://HOST:PORT/DB[?rp=POLICY]` (or `influxdb+https://`): InfluxDB 1.x `/write`, with
///   `INFLUX_USERNAME`/`INFLUX_PASSWORD` as basic authentication when both are set;
/// - `influxdb2://HOST:PORT?org=ORG&bucket=BUCKET` (or `influxdb2+https://`): InfluxDB 2.x
///   `/api/v2/write`, with `Authorization: Token $INFLUX_TOKEN` (required).
package struct InfluxDestination: Sendable, CustomStringConvertible {
    package enum API: Sendable { case v1, v2 }

    package let description: String
    package let precision: InfluxLineEncoder.Precision
    package let api: API
    let writeURL: URL
    let headers: [String: String]
    /// The server's host as written in the destination.
    package let host: String

    package init(_ text: String, precision: InfluxLineEncoder.Precision, environment: [String: String])
        throws(OutputError)
    {
        func bad(_ why: String) -> OutputError { OutputError(path: text, message: why, isBrokenPipe: false) }
        let schemes = [
            "influxdb": (API.v1, "http"), "influxdb+https": (.v1, "https"), "influxdb2": (.v2, "http"),
            "influxdb2+https": (.v2, "https"),
        ]
        guard let url = URLComponents(string: text), let scheme = url.scheme, let (api, transport) = schemes[scheme]
        else {
            throw bad(
                "expected influxdb://HOST:PORT/DB, influxdb2://HOST:PORT?org=ORG&bucket=BUCKET (or their +https variants)"
            )
        }
        guard let host = url.host, !host.isEmpty else { throw bad("missing host") }
        func parameter(_ name: String) -> String? {
            url.queryItems?.first(where: { $0.name == name })?.value.flatMap { $0.isEmpty ? nil : $0 }
        }
        var write = URLComponents()
        write.scheme = transport
        write.host = host
        write.port = url.port ?? 8086
        var headers = ["Content-Type": "text/plain; charset=utf-8"]
        switch api {
        case .v1:
            let database = url.path.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            guard !database.isEmpty else { throw bad("missing database: influxdb://HOST:PORT/DB") }
            write.path = "/write"
            // Always send the precision: without it InfluxDB reads timestamps as nanoseconds.
            var query = [
                URLQueryItem(name: "db", value: database),
                URLQueryItem(name: "precision", value: precision == .us ? "u" : precision.rawValue),
            ]
            if let rp = parameter("rp") { query.append(URLQueryItem(name: "rp", value: rp)) }
            write.queryItems = query
            if let user = environment["INFLUX_USERNAME"], let password = environment["INFLUX_PASSWORD"] {
                headers["Authorization"] = "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
            }
        case .v2:
            guard let org = parameter("org"), let bucket = parameter("bucket") else {
                throw bad("missing org or bucket: influxdb2://HOST:PORT?org=ORG&bucket=BUCKET")
            }
            guard let token = environment["INFLUX_TOKEN"], !token.isEmpty else {
                throw bad("InfluxDB 2.x needs an API token with write access to the bucket: set INFLUX_TOKEN")
            }
            write.path = "/api/v2/write"
            // 2.x spells microseconds "us" (1.x "u").
            write.queryItems = [
                URLQueryItem(name: "org", value: org), URLQueryItem(name: "bucket", value: bucket),
                URLQueryItem(name: "precision", value: precision.rawValue),
            ]
            headers["Authorization"] = "Token " + token
        }
        guard let writeURL = write.url else { throw bad("not a valid address") }
        self.writeURL = writeURL
        self.headers = headers
        self.host = host
        self.description = text
        self.precision = precision
        self.api = api
    }

    /// Whether a host names this machine: `localhost`, 127.0.0.0/8 or ::1 (with or without
    /// brackets). Other names are not resolved: only what the destination says counts.
    package static func isLoopback(_ host: String) -> Bool {
        let name = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if name == "localhost" || name == "::1" || name == "0:0:0:0:0:0:0:1" { return true }
        let octets = name.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}
