/// The `midSession` observation of the player trackers (`exoplayer`, `avplayer`, `html5`): the
/// recording begins while this playback is already under way, so what came before it (its
/// startup, its first format) is not in the recording. Only `true` is accepted; a playback
/// recorded from its start simply has no such observation.
///
/// The trackers do nothing with it (no upstream callback says it, so the events stay the
/// same); the KPIs' state history reads it, and leaves out the figures about the start. It
/// lives in the timeline, not in a reader's side channel, so that a player log converted to a
/// timeline and replayed gives the same KPIs as the log itself.
package enum MidSession {
    package static let key = "midSession"
    package static let rule = ObservationRule.trueSignal
}
