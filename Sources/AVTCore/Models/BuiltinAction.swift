/// The built-in actions in upstream's declaration order; a name is the case's with its first
/// letter in capitals (`trackerInit` → `TrackerInit`).
@usableFromInline
enum BuiltinAction: Int32, CaseIterable {
    case trackerInit, mediaRequest, playerSet, playerReady, prepareItem, manifestLoad, streamLoad, start
    case bufferBegin, bufferFinish, seekBegin, seekFinish, pauseBegin, pauseFinish, forwardBegin
    case forwardFinish, rewindBegin, rewindFinish, qualityChangeUp, qualityChangeDown, stop, end, next, error
    case ping, adBreakBegin, adBreakFinish, adBegin, adFinish, adPauseBegin, adPauseFinish, adBufferBegin
    case adBufferFinish, adSkip, adClick, adFirstQuartile, adSecondQuartile, adThirdQuartile, adError
}
