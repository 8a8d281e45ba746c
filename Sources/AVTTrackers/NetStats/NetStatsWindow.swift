/// What one closed window measured: from the sample that opened it to the sample at `t` that
/// closed it, `length` ms later.
public struct NetStatsWindow: Sendable, Equatable {
    /// Virtual time (ms) of the sample that closed the window.
    public let t: Int
    /// Milliseconds the window spans (≥ the window length it was closed with).
    public let length: Int
    public let video: MediaWindow
    public let audio: MediaWindow

    public init(t: Int, length: Int, video: MediaWindow, audio: MediaWindow) {
        self.t = t
        self.length = length
        self.video = video
        self.audio = audio
    }
}
