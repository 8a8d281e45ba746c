import AVTJSON

/// One checked timeline, for the JUnit and JSON reports of `check`.
package struct CheckCase: Sendable {
    package enum Outcome: Sendable {
        case compared(Comparison)
        /// The timeline or its expected output could not be read (bad input).
        case error(String)
        /// A timeline without an expected output: nothing to compare with.
        case skipped(String)
        /// An expected output without its timeline: nothing checks it.
        case orphaned(String)
    }

    package enum Verdict: Sendable, Equatable {
        case passed, failed, error, skipped, orphaned
    }

    package var name: String
    package var seconds: Double
    package var outcome: Outcome
    /// A skipped timeline or an orphaned golden file fails (the default); `--allow-missing`
    /// turns this off, and they are only listed.
    package var strict = true

    package init(name: String, seconds: Double, outcome: Outcome, strict: Bool = true) {
        self.name = name
        self.seconds = seconds
        self.outcome = outcome
        self.strict = strict
    }

    package var passed: Bool { verdict == .passed }

    /// Which count of the report this case goes into.
    package var verdict: Verdict {
        switch outcome {
        case .compared(let c): c.isEqual ? .passed : .failed
        case .error: .error
        case .skipped: strict ? .failed : .skipped
        case .orphaned: strict ? .failed : .orphaned
        }
    }
}
