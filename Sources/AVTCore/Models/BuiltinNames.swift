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

extension Attribute {
    @inlinable
    init(_ builtin: BuiltinAttribute) { self.init(index: builtin.rawValue) }

    static let builtinNames = BuiltinAttribute.allCases.map { "\($0)" }
}

extension Action {
    /// A built-in action and its `timeSince<Name>` attribute, both at their fixed indexes.
    @inlinable
    init(_ builtin: BuiltinAction) {
        self.init(index: builtin.rawValue, timeAttribute: Attribute(index: BuiltinAttribute.timeSinceTrackerInit.rawValue &+ builtin.rawValue))
    }

    static let builtinNames = BuiltinAction.allCases.map { name in
        let text = "\(name)"
        return text.prefix(1).uppercased() + text.dropFirst()
    }
}
