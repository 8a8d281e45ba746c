import AVTCore
import AVTJSON
import XCTest

@testable import AVTTimeline
@testable import AVTTrackers

/// Each kind's observation rules, as the decoder applies them: unknown keys and bad values are
/// located errors, so a tracker's `observe` only ever sees valid input.
final class TrackerObservationDecodingTests: XCTestCase {
    private typealias T = TrackerTimeline

    private func error(kind: String, _ members: String, file: StaticString = #filePath, line: UInt = #line)
        -> TimelineError?
    {
        let tracker = kind == "ima" ? "ads" : "content"
        return T.decodeError(T.single(kind: kind, [T.observe(0, members, tracker: tracker)]), file: file, line: line)
    }

    func testEveryKindWiresItsTrackerClass() {
        XCTAssertTrue(TrackerKind.avplayer.trackerType == AVPlayerTracker.self)
        XCTAssertTrue(TrackerKind.ima.trackerType == IMATracker.self)
        XCTAssertTrue(TrackerKind.html5.trackerType == HTML5Tracker.self)
        XCTAssertTrue(TrackerKind.exoplayer.trackerType == ExoPlayerTracker.self)
        XCTAssertTrue(TrackerKind.generic.trackerType == GenericTracker.self)
    }

    func testTrackerUnknownObservationKeyIsAnErrorListingTheValidKeys() throws {
        let expectedKeys = [
            "bytesTransferred", "currentTime", "droppedVideoFrames", "duration", "error", "errorLogEvent", "fps",
            "indicatedBitrate",
            "isMuted", "itemStatus", "language", "midSession", "notification",
            "observedBitrate", "playbackBufferEmpty", "playbackBufferFull", "playbackLikelyToKeepUp",
            "presentationSize",
            "rate", "reasonForWaitingToPlay", "release", "source", "status", "subtitles", "timeControlStatus",
            "transferDuration", "volume",
        ]
        let error = try XCTUnwrap(self.error(kind: "avplayer", #""rate": 1, "timeControl": "playing""#))
        XCTAssertEqual(error.path, "steps[0].observe")
        XCTAssertEqual(
            error.message,
            "unknown observation \"timeControl\" for a avplayer tracker: expected one of: "
                + expectedKeys.joined(separator: ", "))
        XCTAssertEqual(error.location?.line, 2)
    }

    func testTrackerUnknownObservationKeysPerKindListTheirOwnKeys() throws {
        let cases: [(kind: String, key: String, lists: [String])] = [
            (
                "ima", "adPosition",
                ["adBreak", "adError", "adEvent", "currentMediaTime", "podIndex", "vastMediaBitrate"]
            ),
            ("html5", "position", ["currentSrc", "currentTime", "event", "muted", "videoHeight", "videoWidth"]),
            (
                "exoplayer", "state",
                [
                    "bandwidthEstimate", "contentPosition", "playWhenReady", "playbackState", "playerError",
                    "seekStarted", "videoSize",
                ]
            ),
        ]
        for (kind, key, lists) in cases {
            let error = try XCTUnwrap(self.error(kind: kind, #""\#(key)": 1"#), kind)
            XCTAssertTrue(
                error.message.hasPrefix("unknown observation \"\(key)\" for a \(kind) tracker: expected one of: "),
                error.message)
            for valid in lists { XCTAssertTrue(error.message.contains(valid), "\(kind): \(valid) in \(error.message)") }
        }
    }

    func testTrackerObservationWithABadValueIsAnErrorAtItsPath() throws {
        let error = try XCTUnwrap(self.error(kind: "avplayer", #""status": "ready""#))
        XCTAssertEqual(error.path, "steps[0].observe.status")
        XCTAssertEqual(error.message, #"expected "unknown" | "readyToPlay" | "failed", found "ready""#)
    }

    func testTrackerObservationBadValuesPerKind() throws {
        let cases: [(kind: String, members: String, path: String, says: String)] = [
            ("avplayer", #""volume": 1.5"#, "volume", "a number from 0 to 1"),
            ("avplayer", #""rate": "1""#, "rate", "a number"),
            (
                "avplayer", #""presentationSize": {"width": 1}"#, "presentationSize",
                #"{"width": number, "height": number}"#
            ),
            ("avplayer", #""notification": "didPlayToEnd""#, "notification", #""didPlayToEndTime""#),
            ("avplayer", #""currentTime": -1"#, "currentTime", "a number ≥ 0 | null"),
            ("ima", #""adEvent": "started""#, "adEvent", "exact spelling"),
            ("ima", #""adEvent": "FirstQuartile""#, "adEvent", "exact spelling"),
            ("ima", #""adBreak": "start""#, "adBreak", #""begin" | "finish""#),
            ("ima", #""podIndex": 1.5"#, "podIndex", "an integer | null"),
            ("html5", #""event": "Playing""#, "event", #""waiting""#),
            ("html5", #""error": {"code": 7}"#, "error", "code"),
            ("html5", #""currentSrc": null"#, "currentSrc", "a string"),
            ("exoplayer", #""seekStarted": false"#, "seekStarted", "expected true"),
            ("exoplayer", #""playbackState": "STATE_READY""#, "playbackState", #""READY""#),
            ("exoplayer", #""playerError": {"type": "SOURCE"}"#, "playerError", "message"),
            ("exoplayer", #""playerError": {"message": "x", "type": "NETWORK"}"#, "playerError", "UNEXPECTED"),
            // A mark, only ever true (a playback recorded from its start has none).
            ("exoplayer", #""midSession": "yes""#, "midSession", "expected true, found \"yes\""),
            ("avplayer", #""midSession": false"#, "midSession", "expected true, found false"),
            ("avplayer", #""release": false"#, "release", "expected true, found false"),
            ("html5", #""midSession": 1"#, "midSession", "expected true, found 1"),
        ]
        for (kind, members, path, says) in cases {
            let error = try XCTUnwrap(self.error(kind: kind, members), "\(kind) \(members)")
            XCTAssertEqual(error.path, "steps[0].observe." + path, "\(kind) \(members)")
            XCTAssertTrue(error.message.hasPrefix("expected "), error.message)
            XCTAssertTrue(error.message.contains(says), "\(kind) \(members): \(error.message)")
        }
    }

    func testTrackerObservationValuesThatAreValid() throws {
        let cases: [(kind: String, members: String)] = [
            ("ima", #""adEvent": "Loaded""#),  // unmapped type strings are accepted and ignored
            ("ima", #""adEvent": "All Ads Completed""#),
            ("html5", #""error": {"code": 4}"#),
            ("html5", #""error": null"#),
            ("exoplayer", #""playerError": {"message": "x"}"#),
            ("avplayer", #""rate": -1.5, "volume": 0, "currentTime": null"#),
            ("exoplayer", #""midSession": true, "playbackState": "READY""#),
            ("avplayer", #""midSession": true"#),
            ("avplayer", #""release": true"#),
            ("html5", #""midSession": true, "event": "playing""#),
        ]
        for (kind, members) in cases {
            let tracker = kind == "ima" ? "ads" : "content"
            XCTAssertNoThrow(
                try TimelineDecoder.decode(
                    Array(T.single(kind: kind, [T.observe(0, members, tracker: tracker)]).utf8), file: "t.json"),
                "\(kind) \(members)")
        }
    }

    func testGenericTrackerTakesNoObservations() throws {
        let text = T.document(trackers: [#"{"name": "content"}"#], [T.observe(0, #""rate": 1"#)])
        let error = try XCTUnwrap(T.decodeError(text))
        XCTAssertTrue(error.message.contains("a generic tracker takes no observations"), error.message)
    }
}
