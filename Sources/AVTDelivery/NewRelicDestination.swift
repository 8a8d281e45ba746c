import AVTCore
import AVTJSON
import AVTOutput
import Foundation

/// `newrelic://[ACCOUNT_ID][?region=eu]`: the Event API (events as custom events of type `OAVT`
/// with an `actionName`, as upstream) and the Metric API (metrics as gauges and counts with
/// their timestamps). The license key comes from `NEW_RELIC_LICENSE_KEY`, the account from the
/// address or `NEW_RELIC_ACCOUNT_ID`; `endpoint` replaces both APIs' host (tests, proxies).
package struct NewRelicDestination: Sendable, CustomStringConvertible {
    package let description: String
    let eventsURL: URL
    let metricsURL: URL
    let key: String

    package init(_ text: String, endpoint: String?, environment: [String: String]) throws(OutputError) {
        func bad(_ why: String) -> OutputError { OutputError(path: text, message: why) }
        guard let url = URLComponents(string: text), url.scheme == "newrelic" else {
            throw bad("expected newrelic://ACCOUNT_ID[?region=eu]")
        }
        let account = (url.host.flatMap { $0.isEmpty ? nil : $0 }) ?? environment["NEW_RELIC_ACCOUNT_ID"]
        guard let account, !account.isEmpty, account.allSatisfy(\.isNumber) else {
            throw bad("missing account id: newrelic://ACCOUNT_ID or NEW_RELIC_ACCOUNT_ID")
        }
        guard let key = environment["NEW_RELIC_LICENSE_KEY"], !key.isEmpty else {
            throw bad("NEW_RELIC_LICENSE_KEY is not set")
        }
        let eu = url.queryItems?.first { $0.name == "region" }?.value?.lowercased() == "eu"
        let eventsBase =
            endpoint ?? (eu ? "https://insights-collector.eu01.nr-data.net" : "https://insights-collector.newrelic.com")
        let metricsBase = endpoint ?? (eu ? "https://metric-api.eu.newrelic.com" : "https://metric-api.newrelic.com")
        guard let events = URL(string: eventsBase + "/v1/accounts/\(account)/events"),
            let metrics = URL(string: metricsBase + "/metric/v1")
        else { throw bad("not a valid endpoint") }
        self.description = text
        self.eventsURL = events
        self.metricsURL = metrics
        self.key = key
    }
}
