import Foundation
import XCTest

/// `kpi --definitions exoplayer` against what ExoPlayer's own PlaybackStatsListener reports, on
/// the project's shared ExoPlayer timelines (`kpi-oracle` in the shared folder), through the
/// built binary and the folder's own `compare.py`. The cases stay in the shared folder: a clone
/// on its own skips this test.
final class KPIOracleTests: XCTestCase {
    func testEveryExoPlayerCaseEqualsPlaybackStats() throws {
        let oracle = try SharedComparer.folder("kpi-oracle", holding: "compare.py")
        try SharedComparer.assertPasses(oracle.appendingPathComponent("compare.py"), [try CLI.binary.path])
    }
}
