/// One entry of a playback's state history: the state and the virtual time it began (ms).
package struct StateSpan: Sendable, Equatable {
    package var state: PlaybackState
    package var start: Int
}
