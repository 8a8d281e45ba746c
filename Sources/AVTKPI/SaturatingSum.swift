extension Int {
    /// `self + other`, held at `Int.max` / `Int.min` instead of trapping: KPIs add up times from
    /// any number of records, and no input may crash the tally.
    func saturatingAdding(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        if !overflow { return sum }
        return other > 0 ? .max : .min
    }
}
