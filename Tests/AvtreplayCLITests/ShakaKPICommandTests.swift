import Foundation
import XCTest

/// `avtreplay kpi --definitions shaka` end to end on fixtures/html5-session.json, worked by hand
/// from Shaka Player's `updateStateHistory_` (lib/player.js: buffering while STARVING, else paused,
/// else ended, else playing; run on `playing`, `pause`, `ended` and buffering changes) and
/// `Stats.getBlob` (lib/util/stats.js).
final class ShakaKPICommandTests: XCTestCase {
    /// Buffering: the load 0–430 (`canplay`), `waiting` 20000–21200, the seek 52000–52300 (no
    /// wait: `seeked` ends it): 430 + 1200 + 300. Paused: 430–1520 (`play` 1500 updates nothing),
    /// 40000–52000, 52300–60050: 1090 + 12000 + 7750. Playing: 1520–20000, 21200–40000,
    /// 60050–85500: 18480 + 18800 + 25450. `loadLatency`: `loadstart` 0 → `loadeddata` 420.
    /// `completionPercent`: the element reaches 95.5 s of 95.5 s at 85500 (`getStats`: 100).
    func testTheHTML5FixtureUnderShaka() throws {
        let result = try CLI.run(["kpi", "fixtures/html5-session.json", "--definitions", "shaka", "--format", "csv"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(
            result.stdout.split(separator: "\n").map(String.init),
            [
                "session,playbackId,playTime (ms),pauseTime (ms),bufferingTime (ms),loadLatency (ms),completionPercent (%)",
                "fixtures/html5-session.json,a0b47507-da5d-bf4f-a674-5d95634a7f80,62730,20840,1930,420,100",
                "fixtures/html5-session.json,(total),62730,20840,1930,420,100",
            ])
        let table = try CLI.run(["kpi", "fixtures/html5-session.json", "--definitions", "shaka"])
        XCTAssertEqual(table.status, 0, table.stderr)
        XCTAssertTrue(table.stdout.contains("(definitions: shaka)"), table.stdout)
    }
}
