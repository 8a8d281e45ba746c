/// What one closed window measured: from the sample that opened it to the sample at `t` that
/// closed it, `length` ms later.
package struct NetStatsWindow: Sendable, Equatable {
    /// Virtual time (ms) of the sample that closed the window.
    package let t: Int
    /// Milliseconds the window spans (≥ the window length it was closed with).
    package let length: Int
    package let video: MediaWindow
    package let audio: MediaWindow

    package init(t: Int, length: Int, video: MediaWindow, audio: MediaWindow) {
        self.t = t
        self.length = length
        self.video = video
        self.audio = audio
    }
}
