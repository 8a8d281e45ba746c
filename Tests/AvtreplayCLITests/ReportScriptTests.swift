import Foundation
import XCTest

/// Runs the report's inline script in headless Chromium, so a syntax or runtime error in it, or a
/// zoom, pan or details panel that stopped working, fails the suite. The test appends its own
/// script to a copy of the page (never the product): it sends key, wheel, pointer, click, focus
/// and hover events the way a browser would deliver them, notes the visible range, axis, ticks,
/// bars and details panel after each, and leaves that in the DOM for `--dump-dom` to print.
final class ReportScriptTests: XCTestCase {
    private let fixture = "fixtures/avplayer-session.json"

    /// Collects errors from the moment the page starts: a syntax error in the report's script, or
    /// an exception in one of its event handlers, arrives here as an `error` event.
    private static let errorCollector = #"""
        <script>window.__reportErrors=[];addEventListener('error',function(e){__reportErrors.push(String(e.message))})</script>
        """#

    /// After load, drives the first session's timeline and writes what it saw as JSON into
    /// `<script type="application/json" id="js-test-result">`, whose text the DOM dump keeps verbatim.
    private static let driver = #"""
        <script>addEventListener('load',function(){var out={errors:window.__reportErrors,steps:[]};
        try{
        var sec=document.querySelector('section.session'),plot=sec.querySelector('.plot'),svg=sec.querySelector('svg.tl');
        var box=document.getElementById(sec.id+'-details'),r=svg.getBoundingClientRect(),W=svg.viewBox.baseVal.width;
        function list(sel,f){return Array.prototype.map.call(svg.querySelectorAll(sel),f)}
        function snap(name){out.steps.push({name:name,view:sec.querySelector('.view').textContent,
         axis:list('g.axis text',function(e){return e.textContent}),
         ticks:list('g.ticks[data-lane="0"] [data-t]',function(e){return {label:e.getAttribute('aria-label'),n:Number(e.getAttribute('data-n')||1)}}),
         marks:list('g.mark',function(e){var w=e.querySelector('text');return {t:Number(e.getAttribute('data-t')),transform:e.getAttribute('transform'),word:w.textContent,shown:w.getAttribute('visibility')!=='hidden'}}),
         bars:list('.bar',function(e){return {kind:e.getAttribute('data-state'),t:Number(e.getAttribute('data-t')),x:e.getAttribute('x'),width:e.getAttribute('width')}})})}
        function key(k){plot.dispatchEvent(new KeyboardEvent('keydown',{key:k,bubbles:true,cancelable:true}))}
        function clientX(vx){return r.left+vx*r.width/W}
        var mid=clientX(640),y=r.top+r.height/2;
        snap('initial');
        plot.focus();out.plotFocused=document.activeElement===plot;
        key('+');snap('zoom in');
        key('ArrowRight');snap('pan right');
        key('0');snap('reset');
        svg.dispatchEvent(new WheelEvent('wheel',{deltaY:-100,clientX:mid,clientY:y,bubbles:true,cancelable:true}));snap('wheel');
        svg.dispatchEvent(new PointerEvent('pointerdown',{button:0,clientX:mid,clientY:y,bubbles:true}));
        window.dispatchEvent(new PointerEvent('pointermove',{clientX:clientX(540),clientY:y,bubbles:true}));
        window.dispatchEvent(new PointerEvent('pointerup',{clientX:clientX(540),clientY:y,bubbles:true}));snap('drag');
        sec.querySelector('.controls button[data-act="reset"]').click();snap('reset button');
        var tick=svg.querySelector('[aria-label="Start at 00:01.200"]');tick.focus();out.tickFocused=document.activeElement===tick;
        if(!document.hasFocus())tick.dispatchEvent(new FocusEvent('focusin',{bubbles:true}));
        out.focused={index:Number(tick.getAttribute('data-i')),text:box.textContent,
         rows:Array.prototype.map.call(box.querySelectorAll('tr'),function(tr){return [tr.querySelector('th').textContent,tr.querySelector('td').textContent]})};
        var agg=svg.querySelector('g.ticks[data-lane="0"] [data-n][data-t="80000"]');
        agg.dispatchEvent(new MouseEvent('mouseover',{bubbles:true}));
        out.hovered={text:box.textContent,rows:box.querySelectorAll('tr').length};
        }catch(e){out.errors.push('test script: '+e)}
        var el=document.createElement('script');el.type='application/json';el.id='js-test-result';
        el.textContent=JSON.stringify(out).replace(/</g,'\\u003c');document.body.appendChild(el)});</script>
        """#

    private struct Result: Decodable {
        struct Step: Decodable {
            struct Tick: Decodable {
                var label: String
                var n: Int
            }
            struct Mark: Decodable {
                var t: Int
                var transform: String
                var word: String
                var shown: Bool
            }
            struct Bar: Decodable {
                var kind: String
                var t: Int
                var x: String
                var width: String
            }
            var name: String
            var view: String
            var axis: [String]
            var ticks: [Tick]
            var marks: [Mark]
            var bars: [Bar]
        }
        struct Focused: Decodable {
            var index: Int
            var text: String
            var rows: [[String]]
        }
        struct Hovered: Decodable {
            var text: String
            var rows: Int
        }
        var errors: [String]
        var steps: [Step]
        var plotFocused: Bool?
        var tickFocused: Bool?
        var focused: Focused?
        var hovered: Hovered?
    }

    /// The report page with the test's scripts, run in Chromium until the page settles.
    private func runInChromium() throws -> Result {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let report = dir.appendingPathComponent("report.html")
        let made = try CLI.run(["report", fixture, "-o", report.path])
        XCTAssertEqual(made.status, 0, made.stderr)
        var html = try String(contentsOf: report, encoding: .utf8)
        let head = try XCTUnwrap(html.range(of: "<head>"))
        html.insert(contentsOf: Self.errorCollector, at: head.upperBound)
        let bodyEnd = try XCTUnwrap(html.range(of: "</body>", options: .backwards))
        html.insert(contentsOf: Self.driver, at: bodyEnd.lowerBound)
        let page = dir.appendingPathComponent("report-under-test.html")
        try html.write(to: page, atomically: true, encoding: .utf8)

        return try Chromium.testResult(
            Result.self, page: page, profile: dir.appendingPathComponent("profile"), window: "1280,900",
            for: "running the report's script")
    }

    /// `Showing 00:35.000 to 01:45.000` → [35000, 105000].
    private func range(_ view: String) -> [Int] {
        view.split(separator: " ").filter { $0.contains(":") }.map { clock in
            let parts = clock.split(separator: ":").map { Double($0)! }
            return Int((parts.reduce(0) { $0 * 60 + $1 } * 1000).rounded())
        }
    }

    func testZoomPanAndDetailsWorkInABrowser() throws {
        let result = try runInChromium()
        XCTAssertEqual(result.errors, [], "script errors")
        XCTAssertEqual(
            result.steps.map(\.name), ["initial", "zoom in", "pan right", "reset", "wheel", "drag", "reset button"])
        guard result.steps.count == 7 else { return }
        let step = Dictionary(uniqueKeysWithValues: result.steps.map { ($0.name, $0) })
        let end = 140_000  // the fixture's last record, End at 02:20.000
        // The fixture's content events, in the order the report numbers its records.
        let records = try CLI.run(["run", fixture]).stdout.split(separator: "\n").map {
            try XCTUnwrap(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        func contentEvents(from a: Int, to b: Int) -> Int {
            records.filter { $0["type"] as? String == "event" && $0["tracker"] as? String == "content" }
                .filter { ($0["t"] as! Int) >= a && ($0["t"] as! Int) <= b }.count
        }

        XCTAssertEqual(range(step["initial"]!.view), [0, end])
        XCTAssertEqual(result.plotFocused, true)
        // + halves the span around the centre.
        XCTAssertEqual(range(step["zoom in"]!.view), [35_000, 105_000])
        // Zoomed, the axis is redrawn: 70 s → a 10 s step, whole seconds without ms.
        XCTAssertEqual(step["zoom in"]!.axis, ["00:40", "00:50", "01:00", "01:10", "01:20", "01:30", "01:40"])
        // State bars are re-placed: the buffering 41.0–42.8 s starts 6 s into a 70 s window of 1000 units.
        let rebuffer = try XCTUnwrap(step["zoom in"]!.bars.first { $0.kind == "buffering" })
        XCTAssertEqual([String(rebuffer.t), rebuffer.x, rebuffer.width], ["41000", "225.7", "25.7"])
        // Marks are re-placed with their words: the rebuffer at 41 s, 6 s into the window.
        let mark = try XCTUnwrap(step["zoom in"]!.marks.first { $0.word == "rebuffer" })
        XCTAssertEqual([mark.transform, String(mark.shown)], ["translate(225.7,0)", "true"])
        // The first frame, the stall at 41 s, the seek while paused at 78 s and the end.
        XCTAssertEqual(step["initial"]!.marks.map(\.word), ["start", "rebuffer", "seek", "end"])
        XCTAssertEqual(step["reset"]!.marks.map(\.transform), step["initial"]!.marks.map(\.transform))
        XCTAssertEqual(step["reset"]!.marks.map(\.shown), step["initial"]!.marks.map(\.shown))
        // Ticks are rebuilt from the data island: every content event in view, each in one tick.
        XCTAssertEqual(step["zoom in"]!.ticks.reduce(0) { $0 + $1.n }, contentEvents(from: 35_000, to: 105_000))
        XCTAssertTrue(step["zoom in"]!.ticks.contains { $0.label == "BufferBegin at 00:41.000" })
        // → pans a tenth of the span.
        XCTAssertEqual(range(step["pan right"]!.view), [42_000, 112_000])
        XCTAssertEqual(step["pan right"]!.ticks.reduce(0) { $0 + $1.n }, contentEvents(from: 42_000, to: 112_000))
        // 0 resets to the whole session and the writer's own axis and ticks.
        XCTAssertEqual(range(step["reset"]!.view), [0, end])
        XCTAssertEqual(step["reset"]!.axis, step["initial"]!.axis)
        XCTAssertEqual(step["reset"]!.ticks.map(\.label), step["initial"]!.ticks.map(\.label))
        // Wheel up zooms to 0.8 of the span around the pointer, here the plot's centre (70 s);
        // the pointer lands on a whole CSS pixel, ~0.13 s at this zoom, hence the slack.
        let wheel = range(step["wheel"]!.view)
        XCTAssertEqual(wheel[1] - wheel[0], 112_000, accuracy: 1)
        XCTAssertEqual((wheel[0] + wheel[1]) / 2, 70_000, accuracy: 150)
        // Dragging 100 of the plot's 1000 units to the left moves the view 10 % of the span later.
        let drag = range(step["drag"]!.view)
        XCTAssertEqual(drag[1] - drag[0], 112_000, accuracy: 1)
        XCTAssertEqual(drag[0] - wheel[0], 11_200, accuracy: 150)
        XCTAssertEqual(range(step["reset button"]!.view), [0, end])

        // Focusing a tick shows its event with every attribute, rebuilt from the island's diffs:
        // the same as the record `run` writes. (A headless window that has not been given the
        // system focus yet, on a loaded machine, moves the focus without firing focusin: the
        // driver then fires it, as the browser would once the window has the focus.)
        XCTAssertEqual(result.tickFocused, true)
        let focused = try XCTUnwrap(result.focused)
        XCTAssertTrue(focused.text.hasPrefix("Start at 00:01.200 (2026-03-01T12:00:01.200Z) · content"), focused.text)
        let record = records[focused.index]
        XCTAssertEqual(record["action"] as? String, "Start")
        let attributes = try XCTUnwrap(record["attributes"] as? [String: Any])
        XCTAssertEqual(focused.rows.map { $0[0] }, attributes.keys.sorted())
        for row in focused.rows {
            let shown = try JSONSerialization.jsonObject(with: Data(row[1].utf8), options: .fragmentsAllowed)
            // NSNumber equality: the page's 24 is the record's 24.0.
            XCTAssertTrue(
                (shown as? NSObject)?.isEqual(attributes[row[0]] as? NSObject) == true,
                "\(row[0]): \(row[1]) vs \(attributes[row[0]] ?? "nothing")")
        }
        XCTAssertTrue(focused.rows.contains(["timeSinceStreamLoad", "850"]), "\(focused.rows)")
        // Hovering an aggregated tick lists the events behind it.
        let hovered = try XCTUnwrap(result.hovered)
        XCTAssertTrue(hovered.text.hasPrefix("2 records from 01:20.000 to 01:20.000"), hovered.text)
        XCTAssertTrue(hovered.text.contains("SeekFinish") && hovered.text.contains("PauseFinish"), hovered.text)
        XCTAssertEqual(hovered.rows, 2)
    }
}
