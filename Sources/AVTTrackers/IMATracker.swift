import AVTCore
import AVTJSON

/// OpenAVT-iOS's Google IMA tracker driven by timeline observations: the app's
/// `adBreakBegin()`/`adBreakFinish()` calls, the IMA ad events it forwards (by `typeString`) and
/// its ad errors, plus the IMA properties the ad getters read.
///
/// The ad's playhead (`adPosition`) moves with virtual time while an ad plays: from "Started"
/// (which restarts it at 0) or "Resume" until "Pause", "Complete", "Skipped", an ad error or the
/// end of the break. A `currentMediaTime` observation sets it at any time.
open class IMATracker: ScriptableTracker {
    /// IMA `typeString` → action, as upstream maps them. Other type strings are ignored.
    static let adEventActions: [String: Action] = [
        "Started": .adBegin,
        "Complete": .adFinish,
        "First Quartile": .adFirstQuartile,
        "Midpoint": .adSecondQuartile,
        "Third Quartile": .adThirdQuartile,
        "Tapped": .adClick,
        "Clicked": .adClick,
        "Skipped": .adSkip,
        "Pause": .adPauseBegin,
        "Resume": .adPauseFinish,
    ]

    /// A mapped type string spelled differently ("started", "FirstQuartile") is almost certainly
    /// a mistake that would silently drop the action, so the decoder rejects it.
    private static func looselyEqual(_ a: String, _ b: String) -> Bool {
        func folded(_ s: String) -> String {
            String(s.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic })
        }
        return folded(a) == folded(b)
    }

    static let adEventRule = ObservationRule(
        expected:
            "an IMA typeString such as \"Started\", \"First Quartile\", \"Midpoint\", \"Third Quartile\", \"Complete\", "
            + "\"Tapped\", \"Clicked\", \"Skipped\", \"Pause\", \"Resume\" (exact spelling; other type strings are ignored)"
    ) { value in
        guard let s = PlayerValue.string(value), !s.isEmpty else { return false }
        if adEventActions[s] != nil { return true }
        return !adEventActions.keys.contains { looselyEqual($0, s) }
    }

    private static let rules: [String: ObservationRule] = [
        "adBreak": .oneOf(["begin", "finish"]),
        "adEvent": adEventRule,
        "adError": .string,
        "currentMediaTime": ObservationRule.nonNegativeNumber.orNull,
        "duration": ObservationRule.nonNegativeNumber.orNull,
        "bufferedMediaTime": ObservationRule.nonNegativeNumber.orNull,
        "volume": ObservationRule.unitInterval.orNull,
        "podIndex": ObservationRule.integer.orNull,
        "adId": ObservationRule.string.orNull,
        "adTitle": ObservationRule.string.orNull,
        "adDescription": ObservationRule.string.orNull,
        "advertiserName": ObservationRule.string.orNull,
        "creativeID": ObservationRule.string.orNull,
        "adSystem": ObservationRule.string.orNull,
        "vastMediaBitrate": ObservationRule.nonNegativeInteger.orNull,
        "vastMediaWidth": ObservationRule.nonNegativeInteger.orNull,
        "vastMediaHeight": ObservationRule.nonNegativeInteger.orNull,
    ]

    open override class var observationRules: [String: ObservationRule] { rules }

    // IMA's ads manager and current ad as last observed. Times in ms.
    private var playhead = Playhead()
    private var duration: Double?
    private var bufferedMediaTime: Double?
    private var volume: Double?
    private var podIndex: Int?
    private var adId: String?
    private var adTitle: String?
    private var adDescription: String?
    private var advertiserName: String?
    private var creativeID: String?
    private var adSystem: String?
    private var vastMediaBitrate: Int?
    private var vastMediaWidth: Int?
    private var vastMediaHeight: Int?
    /// The message of the last `adError`, for the AdError event.
    private var errorMessage: String?

    // MARK: Getters

    open override func playerReady(_ instrument: Instrument) {
        registerPlayerGetter(.trackerTarget, instrument) { .string("IMA") }
        registerPlayerGetter(.adPosition, instrument, reading: self) { tracker in
            tracker.playhead.position(at: tracker.virtualNow).flatMap(truncatedInt).map(AttributeValue.int)
        }
        registerPlayerGetter(.adDuration, instrument, reading: self) {
            $0.duration.flatMap(truncatedInt).map(AttributeValue.int)
        }
        registerPlayerGetter(.adBufferedTime, instrument, reading: self) { tracker in
            tracker.bufferedMediaTime.flatMap(truncatedInt).map(AttributeValue.int)
        }
        registerPlayerGetter(.adVolume, instrument, reading: self) { tracker in
            tracker.volume.map { .int(percentVolume($0)) }
        }
        registerPlayerGetter(.adRoll, instrument, reading: self) { tracker in
            tracker.podIndex.map { .string(Self.adRoll(podIndex: $0)) }
        }
        registerPlayerGetter(.adDescription, instrument, reading: self) { $0.adDescription.map(AttributeValue.string) }
        registerPlayerGetter(.adId, instrument, reading: self) { $0.adId.map(AttributeValue.string) }
        registerPlayerGetter(.adTitle, instrument, reading: self) { $0.adTitle.map(AttributeValue.string) }
        registerPlayerGetter(.adAdvertiserName, instrument, reading: self) { tracker in
            tracker.advertiserName.flatMap { $0.isEmpty ? nil : .string($0) }
        }
        registerPlayerGetter(.adCreativeId, instrument, reading: self) { $0.creativeID.map(AttributeValue.string) }
        registerPlayerGetter(.adBitrate, instrument, reading: self) { $0.vastMediaBitrate.map(AttributeValue.int) }
        registerPlayerGetter(.adResolutionWidth, instrument, reading: self) {
            $0.vastMediaWidth.map(AttributeValue.int)
        }
        registerPlayerGetter(.adResolutionHeight, instrument, reading: self) {
            $0.vastMediaHeight.map(AttributeValue.int)
        }
        registerPlayerGetter(.adSystem, instrument, reading: self) { $0.adSystem.map(AttributeValue.string) }
    }

    /// IMA pod index 0 is the pre-roll, −1 the post-roll, anything else a mid-roll.
    static func adRoll(podIndex: Int) -> String {
        switch podIndex {
        case 0: return "pre"
        case -1: return "post"
        default: return "mid"
        }
    }

    // MARK: Observations

    open override func observe(_ observation: Observation) {
        let value = observation.value
        switch observation.key {
        case "adBreak":
            if PlayerValue.string(value) == "begin" {
                emit(.adBreakBegin)
            } else {
                playhead.setSpeed(0, at: virtualNow)
                emit(.adBreakFinish)
            }
        case "adEvent":
            guard let type = PlayerValue.string(value), let action = Self.adEventActions[type] else { return }
            switch type {
            case "Started":
                playhead.set(0, at: virtualNow)
                playhead.setSpeed(1, at: virtualNow)
            case "Resume":
                playhead.setSpeed(1, at: virtualNow)
            case "Pause", "Complete", "Skipped":
                playhead.setSpeed(0, at: virtualNow)
            default:
                break
            }
            emit(action)
        case "adError":
            playhead.setSpeed(0, at: virtualNow)
            errorMessage = PlayerValue.string(value)
            emit(.adError)
        case "currentMediaTime":
            playhead.set(PlayerValue.number(value).map { $0 * 1000 }, at: virtualNow)
        case "duration":
            duration = PlayerValue.number(value).map { $0 * 1000 }
        case "bufferedMediaTime":
            bufferedMediaTime = PlayerValue.number(value).map { $0 * 1000 }
        case "volume":
            volume = PlayerValue.number(value)
        case "podIndex":
            podIndex = PlayerValue.integer(value)
        case "adId":
            adId = PlayerValue.string(value)
        case "adTitle":
            adTitle = PlayerValue.string(value)
        case "adDescription":
            adDescription = PlayerValue.string(value)
        case "advertiserName":
            advertiserName = PlayerValue.string(value)
        case "creativeID":
            creativeID = PlayerValue.string(value)
        case "adSystem":
            adSystem = PlayerValue.string(value)
        case "vastMediaBitrate":
            vastMediaBitrate = PlayerValue.integer(value)
        case "vastMediaWidth":
            vastMediaWidth = PlayerValue.integer(value)
        case "vastMediaHeight":
            vastMediaHeight = PlayerValue.integer(value)
        default:
            break
        }
    }

    // MARK: Events

    /// Gives an AdError event the ads manager's last error message.
    open override func initEvent(_ event: consuming Event) -> Event? {
        guard var event = super.initEvent(event) else { return nil }
        if event.action == .adError {
            if let errorMessage { event[.errorDescription] = .string(errorMessage) }
            errorMessage = nil
        }
        return event
    }
}
