import AVTJSON

/// How an event is drawn: pings faint, errors standing out, everything else plain.
package enum TickClass: Int, CaseIterable {
    case ping = 0
    case event = 1
    case error = 2

    init(action: String) {
        switch action {
        case "Ping": self = .ping
        case "Error": self = .error
        default: self = .event
        }
    }

    var cssClass: String {
        switch self {
        case .ping: return "ping"
        case .event: return "ev"
        case .error: return "err"
        }
    }
}
