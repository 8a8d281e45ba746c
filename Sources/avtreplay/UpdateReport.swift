import AVTAnalysis
import AVTJSON

/// `check --update --format json`: what a bot reads after regenerating golden files.
enum UpdateReport {
    /// `{"created", "updated", "unchanged", "files": [{"path", "change", "report"}], "cases": [...]}`,
    /// `cases` being the errors and missing golden files, as `check --format json` lists them.
    static func json(files: [(path: String, line: String, change: GoldenCheck.Change)], cases: [CheckCase]) -> String {
        var w = JSONWriter()
        let count = { (change: GoldenCheck.Change) in files.filter { $0.change == change }.count }
        w.raw("{\"created\":")
        w.int(count(.created))
        w.raw(",\"updated\":")
        w.int(count(.updated))
        w.raw(",\"unchanged\":")
        w.int(count(.unchanged))
        w.raw(",\"files\":[")
        for (n, file) in files.enumerated() {
            if n > 0 { w.raw(",") }
            w.raw("{\"path\":")
            w.string(file.path)
            w.raw(",\"change\":")
            w.string("\(file.change)")
            w.raw(",\"report\":")
            w.string(file.line)
            w.raw("}")
        }
        w.raw("],\"cases\":")
        // The check's own JSON report of the errors and missing golden files, nested as it is.
        let report = CheckReport.render(cases, format: .json, single: false, color: false, timestamp: "")
        return String(decoding: w.bytes, as: UTF8.self) + report.dropLast() + "}\n"
    }
}
