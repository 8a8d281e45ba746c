/// The timeline-scripted tracker (upstream's test tracker): it emits exactly the actions the
/// steps name, serves each `set` key as a getter, and adds a step's `attributes` in initEvent.
open class GenericTracker: ScriptableTracker {}
