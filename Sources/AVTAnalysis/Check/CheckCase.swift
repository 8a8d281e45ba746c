import AVTJSON

/// One checked timeline, for the JUnit and JSON reports of `check`.
package struct CheckCase: Sendable {
    package enum Outcome: Sendable {
        case compared(Comparison)
        /// The timeline or its expected output could not be read (bad input).
        case error(String)
    }

    package var name: String
    package var seconds: Double
    package var outcome: Outcome

    package init(name: String, seconds: Double, outcome: Outcome) {
        self.name = name
        self.seconds = seconds
        self.outcome = outcome
    }

    package var passed: Bool {
        if case .compared(let c) = outcome { return c.isEqual }
        return false
    }
}
