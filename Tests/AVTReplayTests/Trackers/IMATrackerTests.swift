import AVTCore
import AVTJSON
import XCTest

/// The IMA tracker through the real path, under HubCoreAds (its default hub).
final class IMATrackerTests: XCTestCase {
    private typealias T = TrackerTimeline

    private func replay(_ steps: [String], settings: String = #""pingInterval": 0"#) throws -> TrackerRecordingBackend {
        try T.replay(T.single(kind: "ima", settings: settings, steps))
    }

    private func ads(_ t: Int, _ members: String) -> String { T.observe(t, members, tracker: "ads") }

    func testIMAAdBreakAndTypeStringsMapToAdActions() throws {
        let out = try replay([
            ads(0, #""adBreak": "begin""#),
            ads(100, #""adEvent": "Loaded""#),
            ads(200, #""adEvent": "Started""#),
            ads(300, #""adEvent": "Progress""#),
            ads(400, #""adEvent": "First Quartile""#),
            ads(500, #""adEvent": "Pause""#),
            ads(600, #""adEvent": "Resume""#),
            ads(700, #""adEvent": "Midpoint""#),
            ads(800, #""adEvent": "Tapped""#),
            ads(900, #""adEvent": "Clicked""#),
            ads(1000, #""adEvent": "Third Quartile""#),
            ads(1100, #""adEvent": "Complete""#),
            ads(1200, #""adEvent": "All Ads Completed""#),
            ads(1300, #""adBreak": "finish""#),
        ])
        XCTAssertEqual(
            out.trace,
            [
                "0 TrackerInit", "0 AdBreakBegin", "200 AdBegin", "400 AdFirstQuartile", "500 AdPauseBegin",
                "600 AdPauseFinish", "700 AdSecondQuartile", "800 AdClick", "900 AdClick", "1000 AdThirdQuartile",
                "1100 AdFinish", "1300 AdBreakFinish",
            ])
        XCTAssertEqual(out.event(.adBegin)?[.countAds], 1)
        XCTAssertEqual(out.event(.adPauseBegin)?[.inPauseBlock], true)
    }

    func testIMAOverEmittedAdActionsAreBlockedByTheHub() throws {
        let out = try replay([
            ads(0, #""adEvent": "Started""#),  // no break yet: blocked
            ads(100, #""adBreak": "begin""#),
            ads(200, #""adBreak": "begin""#),  // blocked
            ads(300, #""adEvent": "Resume""#),  // not paused: blocked
            ads(400, #""adEvent": "Started""#),
            ads(500, #""adEvent": "Complete""#),
            ads(600, #""adEvent": "Complete""#),  // blocked
            ads(700, #""adBreak": "finish""#),
        ])
        XCTAssertEqual(
            out.trace, ["0 TrackerInit", "100 AdBreakBegin", "400 AdBegin", "500 AdFinish", "700 AdBreakFinish"])
    }

    func testIMASkippedEmitsAdSkipWithoutAdFinish() throws {
        let out = try replay([
            ads(0, #""adBreak": "begin""#),
            ads(100, #""adEvent": "Started""#),
            ads(5000, #""adEvent": "Skipped""#),
            ads(5100, #""adBreak": "finish""#),
            ads(9000, #""adBreak": "begin""#),
            ads(9100, #""adEvent": "Started""#),  // inAd is still true: AdBegin while in an ad is blocked (as in S22)
        ])
        XCTAssertEqual(
            out.trace,
            [
                "0 TrackerInit", "0 AdBreakBegin", "100 AdBegin", "5000 AdSkip", "5100 AdBreakFinish",
                "9000 AdBreakBegin",
            ])
        XCTAssertTrue(out.events(.adFinish).isEmpty)
        XCTAssertEqual(out.event(.adBreakFinish)?[.inAdBlock], true)
    }

    func testIMAPodIndexMapsToAdRoll() throws {
        let out = try replay([
            ads(0, #""podIndex": 0, "adBreak": "begin""#),
            ads(100, #""podIndex": 2, "adEvent": "Started""#),
            ads(200, #""podIndex": -1, "adEvent": "Complete""#),
            ads(300, #""podIndex": null, "adBreak": "finish""#),
        ])
        XCTAssertEqual(
            out.trace, ["0 TrackerInit", "0 AdBreakBegin", "100 AdBegin", "200 AdFinish", "300 AdBreakFinish"])
        XCTAssertEqual(out.events.map { $0[.adRoll] }, [nil, "pre", "mid", "post", nil])
    }

    func testIMAAdErrorEmitsAdErrorWithErrorDescription() throws {
        let out = try replay([
            ads(0, #""adError": "VAST error 303: no ads""#),
            T.action(100, "AdError", tracker: "ads"),  // the message was consumed by the first
        ])
        XCTAssertEqual(out.trace, ["0 TrackerInit", "0 AdError", "100 AdError"])
        XCTAssertEqual(out.events(.adError).map { $0[.errorDescription] }, ["VAST error 303: no ads", nil])
    }

    func testIMAAdPositionAdvancesWhileTheAdPlays() throws {
        let out = try replay([
            ads(0, #""adBreak": "begin""#),
            ads(1000, #""duration": 10, "adEvent": "Started""#),
            ads(3500, #""adEvent": "First Quartile""#),
            ads(4000, #""adEvent": "Pause""#),
            ads(6000, #""adEvent": "Resume""#),
            ads(7000, #""currentMediaTime": 4.25, "adEvent": "Midpoint""#),
            ads(8000, #""adEvent": "Complete""#),
            ads(9000, #""adBreak": "finish""#),
        ])
        XCTAssertEqual(
            out.trace,
            [
                "0 TrackerInit", "0 AdBreakBegin", "1000 AdBegin", "3500 AdFirstQuartile", "4000 AdPauseBegin",
                "6000 AdPauseFinish", "7000 AdSecondQuartile", "8000 AdFinish", "9000 AdBreakFinish",
            ])
        XCTAssertEqual(out.events.map { $0[.adPosition] }, [nil, nil, 0, 2500, 3000, 3000, 4250, 5250, 5250])
        XCTAssertEqual(out.event(.adBegin)?[.adDuration], 10000)
    }

    func testIMAStartedRestartsTheAdPlayheadForTheNextAd() throws {
        let out = try replay([
            ads(0, #""adBreak": "begin""#),
            ads(0, #""adEvent": "Started""#),
            ads(5000, #""adEvent": "Complete""#),
            ads(5200, #""adEvent": "Started""#),
            ads(6200, #""adEvent": "First Quartile""#),
        ])
        XCTAssertEqual(out.events(.adBegin).map { $0[.adPosition] }, [0, 0])
        XCTAssertEqual(out.event(.adFinish)?[.adPosition], 5000)
        XCTAssertEqual(out.event(.adFirstQuartile)?[.adPosition], 1000)
    }

    func testIMAGettersReadTheAdAndConvertSecondsToMilliseconds() throws {
        let out = try replay([
            ads(
                0,
                #""duration": 15.5, "bufferedMediaTime": 3.25, "volume": 0.29, "podIndex": 0, "adId": "ad-1", "adTitle": "Spring sale", "adDescription": "30% off", "advertiserName": "", "creativeID": "cr-9", "adSystem": "GDFP", "vastMediaBitrate": 1500, "vastMediaWidth": 1280, "vastMediaHeight": 720, "adBreak": "begin""#
            ),
            ads(100, #""advertiserName": "ACME", "adEvent": "Started""#),
        ])
        let begin = try XCTUnwrap(out.event(.adBreakBegin))
        XCTAssertEqual(begin[.trackerTarget], "IMA")
        XCTAssertEqual(begin[.isAdsTracker], true)
        XCTAssertEqual(begin[.adDuration], 15500)
        XCTAssertEqual(begin[.adBufferedTime], 3250)
        XCTAssertEqual(begin[.adVolume], 29, "Int(volume × 100) in Float, as upstream")
        XCTAssertEqual(begin[.adRoll], "pre")
        XCTAssertEqual(begin[.adId], "ad-1")
        XCTAssertEqual(begin[.adTitle], "Spring sale")
        XCTAssertEqual(begin[.adDescription], "30% off")
        XCTAssertNil(begin[.adAdvertiserName], "an empty advertiser name is not reported")
        XCTAssertEqual(begin[.adCreativeId], "cr-9")
        XCTAssertEqual(begin[.adSystem], "GDFP")
        XCTAssertEqual(begin[.adBitrate], 1500)
        XCTAssertEqual(begin[.adResolutionWidth], 1280)
        XCTAssertEqual(begin[.adResolutionHeight], 720)
        XCTAssertNil(begin[.adPosition], "no currentMediaTime yet")
        XCTAssertEqual(out.event(.adBegin)?[.adAdvertiserName], "ACME")
    }

    func testIMAWithAnAVPlayerContentTrackerReportsTheContentPosition() throws {
        let text = T.document(
            trackers: [#"{"name": "content", "kind": "avplayer"}"#, #"{"name": "ads", "kind": "ima"}"#],
            settings: #""pingInterval": 0"#,
            [
                T.observe(0, #""currentTime": 0, "status": "readyToPlay", "rate": 1"#),
                T.observe(10000, #""rate": 0"#),
                ads(10000, #""podIndex": 1, "adBreak": "begin""#),
                ads(10100, #""adEvent": "Started""#),
                ads(20100, #""adEvent": "Complete""#),
                ads(20200, #""adBreak": "finish""#),
                T.observe(20200, #""rate": 1"#),
            ])
        let out = try T.replay(text)
        XCTAssertEqual(
            out.traceByTracker,
            [
                "0 0:TrackerInit", "0 1:TrackerInit", "0 0:StreamLoad", "0 0:Start", "10000 0:PauseBegin",
                "10000 1:AdBreakBegin", "10100 1:AdBegin", "20100 1:AdFinish", "20200 1:AdBreakFinish",
                "20200 0:PauseFinish",
            ])
        XCTAssertEqual(out.event(.adBegin)?[.position], 10000, "HubCoreAds adds the content tracker's position")
        XCTAssertEqual(out.event(.adBegin)?[.adRoll], "mid")
    }
}
