/// The names every process knows from the start, interned at fixed indexes so the built-in
/// constants (`Attribute.playbackId`, `Action.start`) are compile-time values: declared as
/// `Attribute("playbackId")` they were interned on first use, and every use then went through a
/// lazy-initialisation check, several per event (a hub's `switch` over actions made one per case).
/// A case's name is its wire name; the order is the order of the indexes.
@usableFromInline
enum BuiltinAttribute: Int32, CaseIterable {
    // On every content event (from the instrument, the trackers' getters and the hub).
    case senderId, trackerTarget, errorDescription, position, duration, resolutionHeight, resolutionWidth
    case isMuted, volume, fps, source, bitrate, language, subtitles, title, isAdsTracker, streamId, playbackId
    case countErrors, countStarts, accumPauseTime, accumBufferTime, accumSeekTime, accumPlayTime
    case deltaPlayTime, inPauseBlock, inSeekBlock, inBufferBlock, inPlaybackBlock
    // One time-since attribute per built-in action, in `BuiltinAction` order.
    case timeSinceTrackerInit, timeSinceMediaRequest, timeSincePlayerSet, timeSincePlayerReady
    case timeSincePrepareItem, timeSinceManifestLoad, timeSinceStreamLoad, timeSinceStart
    case timeSinceBufferBegin, timeSinceBufferFinish, timeSinceSeekBegin, timeSinceSeekFinish
    case timeSincePauseBegin, timeSincePauseFinish, timeSinceForwardBegin, timeSinceForwardFinish
    case timeSinceRewindBegin, timeSinceRewindFinish, timeSinceQualityChangeUp, timeSinceQualityChangeDown
    case timeSinceStop, timeSinceEnd, timeSinceNext, timeSinceError, timeSincePing, timeSinceAdBreakBegin
    case timeSinceAdBreakFinish, timeSinceAdBegin, timeSinceAdFinish, timeSinceAdPauseBegin
    case timeSinceAdPauseFinish, timeSinceAdBufferBegin, timeSinceAdBufferFinish, timeSinceAdSkip
    case timeSinceAdClick, timeSinceAdFirstQuartile, timeSinceAdSecondQuartile, timeSinceAdThirdQuartile
    case timeSinceAdError
    // Ads only. Last, because `AttributeMap` tells keys apart by index modulo 64 before it
    // scans: these share bits with content attributes, which matters only on ad events.
    case countAds, inAdBreakBlock, inAdBlock, adPosition, adDuration, adBufferedTime, adVolume, adRoll
    case adDescription, adId, adTitle, adAdvertiserName, adCreativeId, adSystem, adBitrate, adResolutionHeight
    case adResolutionWidth
}
