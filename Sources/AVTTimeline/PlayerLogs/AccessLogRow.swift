/// One event (row) of an `AVPlayerItemAccessLog` dump, its tokens mapped by the `#Fields`
/// header's names (the header is the contract, not the position). Missing values are `-`.
package struct AccessLogRow: Equatable {
    /// `playbackStartDate` as ms since 1970 (device local time read as UTC); nil for `- -`.
    package var date: Int?
    package var uri: String
    package var guid: String
    /// `c-start-time`, `c-duration-watched`, `c-startup-time`: seconds, as ms.
    package var startTime: Int
    package var watched: Int
    package var startup: Int?
    package var stalls: Int
    package var framesDropped: Int
    package var indicatedBitrate: Double?
    package var observedBitrate: Double?
    /// The source line, for step origins.
    package var line: Int

    /// Reads a row given the header's field names; nil with the reason when it cannot.
    package static func parse(_ tokens: [Substring], fields: [Substring], line: Int) -> Result<AccessLogRow, RowError> {
        guard tokens.count == fields.count else {
            return .failure(RowError("\(tokens.count) values for \(fields.count) #Fields (a cut line?)"))
        }
        var values: [Substring: Substring] = [:]
        for (name, token) in zip(fields, tokens) { values[name] = token }
        func seconds(_ name: Substring) -> Int? {
            guard let text = values[name], text != "-", let value = Double(text), value.isFinite, value >= 0,
                value < 1e12
            else { return nil }
            return Int((value * 1000).rounded())
        }
        func integer(_ name: Substring) -> Int? {
            guard let text = values[name], let value = Int(text), value >= 0 else { return nil }
            return value
        }
        func rate(_ name: Substring) -> Double? {
            guard let text = values[name], let value = Double(text), value.isFinite, value >= 0, value < 1e15 else {
                return nil
            }
            return value
        }
        guard let guid = values["cs-guid"], guid != "-" else { return .failure(RowError("no cs-guid")) }
        var date: Int?
        if let day = values["date"], let time = values["time"], day != "-" {
            guard let parsed = Self.date(day, time) else {
                return .failure(RowError("a date that is not yyyy/MM/dd HH:mm:ss"))
            }
            date = parsed
        }
        return .success(
            AccessLogRow(
                date: date, uri: String(values["uri"] ?? "-"), guid: String(guid),
                startTime: seconds("c-start-time") ?? 0,
                watched: seconds("c-duration-watched") ?? 0, startup: seconds("c-startup-time"),
                stalls: integer("c-stalls") ?? 0, framesDropped: integer("c-frames-dropped") ?? 0,
                indicatedBitrate: rate("sc-indicated-bitrate"), observedBitrate: rate("c-observed-bitrate"), line: line)
        )
    }

    /// `yyyy/MM/dd` and `HH:mm:ss.sss`, where `sss` is the seconds again, zero-padded to three
    /// digits (`15:25:02.002`), not milliseconds: the real resolution is one second.
    package static func date(_ day: Substring, _ time: Substring) -> Int? {
        let d = day.split(separator: "/")
        let t = time.split(separator: ".").first?.split(separator: ":") ?? []
        guard d.count == 3, t.count == 3, let year = Int(d[0]), let month = Int(d[1]), let dayOfMonth = Int(d[2]),
            let h = Int(t[0]), let m = Int(t[1]), let s = Int(t[2]), (1...12).contains(month),
            (1...31).contains(dayOfMonth), (0..<24).contains(h), (0..<60).contains(m), (0..<61).contains(s),
            (1...9999).contains(year)
        else { return nil }
        return LogcatEnvelope.daysFromCivil(year, month, dayOfMonth) * 86_400_000 + ((h * 60 + m) * 60 + s) * 1000
    }

    /// Space-separated tokens; a `"…"` token (the error log's domain and comment) keeps its spaces.
    package static func tokens(_ line: Substring) -> [Substring] {
        var result: [Substring] = []
        var index = line.startIndex
        while index < line.endIndex {
            while index < line.endIndex, line[index] == " " { index = line.index(after: index) }
            guard index < line.endIndex else { break }
            let start = index
            if line[index] == "\"" {
                index = line.index(after: index)
                while index < line.endIndex, line[index] != "\"" { index = line.index(after: index) }
                if index < line.endIndex { index = line.index(after: index) }
            } else {
                while index < line.endIndex, line[index] != " " { index = line.index(after: index) }
            }
            result.append(line[start..<index])
        }
        return result
    }

    package struct RowError: Error, Equatable {
        package var message: String
        init(_ message: String) { self.message = message }
    }
}
