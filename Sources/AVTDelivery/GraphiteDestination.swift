import AVTCore
import AVTJSON
import AVTOutput
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `graphite://HOST[:PORT]` (plaintext over TCP, port 2003 by default) or `graphite+udp://`.
package struct GraphiteDestination: Sendable, CustomStringConvertible {
    package let description: String
    let host: String
    let port: UInt16
    let udp: Bool

    package init(_ text: String) throws(OutputError) {
        guard let url = URLComponents(string: text), let scheme = url.scheme,
            scheme == "graphite" || scheme == "graphite+udp",
            let host = url.host, !host.isEmpty
        else { throw OutputError(path: text, message: "expected graphite://HOST[:PORT] or graphite+udp://HOST[:PORT]") }
        self.description = text
        self.host = host
        self.port = UInt16(url.port ?? 2003)
        self.udp = scheme == "graphite+udp"
    }
}
