import XCTest

@testable import AVTCore

/// Built-in attributes and actions are interned at fixed indexes (`BuiltinNames.swift`), so the
/// constants and the names they stand for must agree however the tables are seeded.
final class BuiltinNameTests: XCTestCase {
    func testEveryBuiltinAttributeIsItsNameWhenLookedUpByName() {
        for builtin in BuiltinAttribute.allCases {
            let constant = Attribute(builtin)
            XCTAssertEqual(constant.index, builtin.rawValue)
            XCTAssertEqual(constant.name, "\(builtin)")
            XCTAssertEqual(Attribute("\(builtin)"), constant, "\(builtin)")
        }
        XCTAssertEqual(Attribute.playbackId.name, "playbackId")
        XCTAssertEqual(Attribute.adResolutionWidth.name, "adResolutionWidth")
    }

    func testEveryBuiltinActionHasItsUpstreamNameAndItsOwnTimeSinceAttribute() {
        XCTAssertEqual(Action.builtIn.count, 39)
        XCTAssertEqual(Action.builtIn.map(\.name), Action.builtinNames)
        for action in Action.builtIn {
            XCTAssertEqual(Action(action.name), action, action.name)
            // Catches the time-since block of BuiltinAttribute drifting from BuiltinAction's order.
            XCTAssertEqual(action.timeAttribute.name, "timeSince" + action.name)
            XCTAssertEqual(Action(action.name).timeAttribute, action.timeAttribute)
        }
        XCTAssertEqual(Action.trackerInit.name, "TrackerInit")
        XCTAssertEqual(Action.adError.timeAttribute.name, "timeSinceAdError")
    }

    func testCustomNamesAreInternedAfterTheBuiltinOnes() {
        let custom = Attribute("aCustomAttributeOfThisTest")
        XCTAssertGreaterThanOrEqual(Int(custom.index), BuiltinAttribute.allCases.count)
        XCTAssertEqual(custom.name, "aCustomAttributeOfThisTest")
        let action = Action("ACustomActionOfThisTest")
        XCTAssertGreaterThanOrEqual(Int(action.index), BuiltinAction.allCases.count)
        XCTAssertEqual(action.timeAttribute.name, "timeSinceACustomActionOfThisTest")
    }
}
