/// How far a metric value may move and still compare equal: `--value-tolerance` `1%`,
/// `StartTime=50`, `gauge=0.5%`, `counter=1`. Absolute amounts are in the metric's own unit;
/// relative ones are a share of the expected value.
public struct ValueTolerance: Sendable, Equatable {
    /// Which metrics a tolerance loosens.
    package enum Selector: Sendable, Equatable, Hashable {
        /// `gauge` (also what a bare amount means): gauges that are not ratios.
        case gauges
        /// `counter`: counters.
        case counters
        /// `ratio`: the 0…1 ratios (`VideoPacketLoss`, `AudioPacketLoss`).
        case ratios
        /// Any other word: the metric of that exact name, whatever its kind.
        case name(String)
    }

    package var selector: Selector
    package var amount: Double
    /// `amount` is a percentage of the expected value rather than an absolute difference.
    package var relative: Bool

    /// Metrics whose values are ratios from 0 to 1. A blanket gauge tolerance leaves them exact:
    /// 1% of a loss ratio and 1% of a bandwidth are different promises.
    package static let ratioNames: Set<String> = ["VideoPacketLoss", "AudioPacketLoss"]

    /// Parses `[selector=]amount[%]`; nil when it is not that.
    public init?(_ text: String) {
        var selectorText = ""
        var amountText = Substring(text)
        if let equals = text.lastIndex(of: "=") {
            selectorText = String(text[..<equals])
            amountText = text[text.index(after: equals)...]
            if selectorText.isEmpty { return nil }
        }
        relative = amountText.hasSuffix("%")
        if relative { amountText = amountText.dropLast() }
        guard let amount = Double(amountText), amount.isFinite, amount >= 0 else { return nil }
        self.amount = amount
        switch selectorText {
        case "", "gauge": selector = .gauges
        case "counter": selector = .counters
        case "ratio": selector = .ratios
        default: selector = .name(selectorText)
        }
    }

    /// Whether this tolerance applies to a metric of this name and `metricType`.
    func selects(name: String, metricType: String?) -> Bool {
        switch selector {
        case .name(let selected): return selected == name
        case .ratios: return Self.ratioNames.contains(name)
        case .gauges: return metricType == "gauge" && !Self.ratioNames.contains(name)
        case .counters: return metricType == "counter"
        }
    }

    func allows(expected: Double, actual: Double) -> Bool {
        let limit = relative ? abs(expected) * amount / 100 : amount
        return abs(expected - actual) <= limit
    }
}
