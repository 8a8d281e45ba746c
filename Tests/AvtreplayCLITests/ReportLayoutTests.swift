import Foundation
import XCTest

/// The report stays readable from 400 px wide up: headless Chromium lays out the report of every
/// fixture (the overview's histograms, waterfalls, format plots, timelines) at 400 and 1400 px,
/// and no text on the page is drawn smaller than 10 px, and the page itself never scrolls
/// sideways (a wide plot scrolls inside its own box).
final class ReportLayoutTests: XCTestCase {
    /// After load, measures every piece of text the page draws and posts the result as JSON to the
    /// page around it. Headless Chromium's window is at least 500 px wide, so the report is laid
    /// out in an iframe of the width under test.
    private static let driver = #"""
        <script>addEventListener('load',function(){var out={smallest:1e9,text:'',count:0,pageWidth:0,viewport:0};
        var all=document.body.getElementsByTagName('*');
        for(var i=0;i<all.length;i++){var el=all[i],own='';
         for(var c=el.firstChild;c;c=c.nextSibling)if(c.nodeType===3)own+=c.textContent;
         if(!own.trim()||el.closest('script,style,title')||!el.getClientRects().length)continue;
         var st=getComputedStyle(el);if(st.visibility==='hidden'||st.display==='none')continue;
         var size=parseFloat(st.fontSize),ctm=el.getScreenCTM?el.getScreenCTM():null;
         if(ctm)size*=Math.sqrt(ctm.a*ctm.a+ctm.b*ctm.b);out.count++;
         if(size<out.smallest){out.smallest=size;out.text=own.trim().slice(0,60)}}
        out.pageWidth=document.documentElement.scrollWidth;out.viewport=innerWidth;
        parent.postMessage(JSON.stringify(out).replace(/</g,'\\u003c'),'*')});</script>
        """#

    private struct Result: Decodable {
        var smallest: Double
        var text: String
        var count: Int
        var pageWidth: Int
        var viewport: Int
    }

    private func measure(_ html: String, width: Int, in dir: URL) throws -> Result {
        var page = html
        let bodyEnd = try XCTUnwrap(page.range(of: "</body>", options: .backwards))
        page.insert(contentsOf: Self.driver, at: bodyEnd.lowerBound)
        let file = dir.appendingPathComponent("report-\(width).html")
        try page.write(to: file, atomically: true, encoding: .utf8)
        // The frame's message lands in `<script type="application/json" id="js-test-result">`,
        // which `--dump-dom` prints verbatim.
        let frame = dir.appendingPathComponent("frame-\(width).html")
        try """
        <!DOCTYPE html><html><body style="margin:0"><iframe src="\(file.lastPathComponent)" \
        style="width:\(width)px;height:900px;border:0"></iframe><script>addEventListener('message',function(e){\
        var el=document.createElement('script');el.type='application/json';el.id='js-test-result';\
        el.textContent=e.data;document.body.appendChild(el)})</script></body></html>
        """.write(to: frame, atomically: true, encoding: .utf8)
        return try Chromium.testResult(
            Result.self, page: frame, profile: dir.appendingPathComponent("profile-\(width)"), window: "1500,950",
            for: "laying out the report", extraFlags: ["--hide-scrollbars", "--force-device-scale-factor=1"])
    }

    func testNoTextIsSmallerThan10PixelsFrom400PixelsUp() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let report = dir.appendingPathComponent("report.html")
        let made = try CLI.run(["report", "fixtures", "-o", report.path])
        XCTAssertEqual(made.status, 0, made.stderr)
        let html = try String(contentsOf: report, encoding: .utf8)
        for width in [400, 1400] {
            let result = try measure(html, width: width, in: dir)
            XCTAssertEqual(result.viewport, width)
            XCTAssertGreaterThan(result.count, 1000, "text measured at \(width) px")
            XCTAssertGreaterThanOrEqual(
                result.smallest, 9.99, "at \(width) px, \"\(result.text)\" is \(result.smallest) px")
            XCTAssertLessThanOrEqual(result.pageWidth, width, "the page scrolls sideways at \(width) px")
        }
    }
}
