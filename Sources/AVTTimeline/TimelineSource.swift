/// A timeline as a stream: its settings up front, then steps one at a time, so a replay holds
/// one step at a time whatever the timeline's length — or all of them when the input is decoded
/// whole (a JSON document with a mistake outside its steps, whose decoder says what it is).
public protocol TimelineSource {
    /// Where the timeline comes from, for messages and the `session` field.
    var name: String { get }
    /// The timeline's settings, known before the first step.
    var settings: TimelineSettings { get }
    /// The next step, checked; nil at the end.
    mutating func nextStep() throws(TimelineError) -> Step?
}
