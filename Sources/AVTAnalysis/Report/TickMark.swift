/// One drawn tick: a single event, or several that would overlap at the default zoom.
package struct TickMark {
    var lane: Int
    var tickClass: TickClass
    /// Indices into the session's records, in delivery order.
    var records: [Int]
    var firstT: Int
    var lastT: Int
}
