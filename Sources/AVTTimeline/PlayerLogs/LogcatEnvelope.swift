import AVTFormats

/// What logcat (or the tool the log was copied from) puts before a message: a wall-clock time
/// and a process id, either of which can be missing. Read leniently from the bytes before the
/// message, whatever the layout (`-v threadtime`, `-v brief`, both Android Studio layouts,
/// editor prefixes such as `\tLine 13757: `).
package struct LogcatEnvelope: Equatable {
    /// Logcat prints no year (`03-14 10:21:47.041`); this one is used then, a leap year so that
    /// `02-29` reads. Only Android Studio's layouts with a date show the real year.
    package static let defaultYear = 2000

    /// Milliseconds since 1970 of the printed time, read as UTC (logcat prints local time with no
    /// zone); nil when the layout hides the time.
    package var wallClock: Int?
    /// The process id, when the layout shows it.
    package var pid: Int?

    /// Reads `bytes[0..<end]`.
    package init(_ bytes: UnsafeBufferPointer<UInt8>, end: Int) {
        wallClock = nil
        pid = nil
        guard let (timeStart, timeEnd, msOfDay) = Self.time(bytes, end: end) else { return }
        var day = (year: Self.defaultYear, month: 1, day: 1)
        // `MM-DD ` before the time, and `YYYY-` before that.
        if timeStart >= 6, let month = Self.number(bytes, timeStart - 6, 2), bytes[timeStart - 4] == 0x2D,
            let dayOfMonth = Self.number(bytes, timeStart - 3, 2), bytes[timeStart - 1] == 0x20,
            (1...12).contains(month), (1...31).contains(dayOfMonth)
        {
            day.month = month
            day.day = dayOfMonth
            if timeStart >= 11, bytes[timeStart - 7] == 0x2D, let year = Self.number(bytes, timeStart - 11, 4) {
                day.year = year
            }
        }
        wallClock = Self.daysFromCivil(day.year, day.month, day.day) * 86_400_000 + msOfDay
        pid = Self.pid(bytes, from: timeEnd, end: end)
    }

    /// The first `HH:MM:SS.mmm`: its range and milliseconds of the day.
    private static func time(_ b: UnsafeBufferPointer<UInt8>, end: Int) -> (Int, Int, Int)? {
        var i = 0
        while i + 12 <= end {
            if b[i + 2] == 0x3A, b[i + 5] == 0x3A, b[i + 8] == 0x2E, let h = number(b, i, 2),
                let m = number(b, i + 3, 2),
                let s = number(b, i + 6, 2), let ms = number(b, i + 9, 3), h < 24, m < 60, s < 61
            {
                return (i, i + 12, ((h * 60 + m) * 60 + s) * 1000 + ms)
            }
            i += 1
        }
        return nil
    }

    /// The first run of digits after the time that stands alone (after a space or `(`, before a
    /// space, `-`, `)`, `/` or `:`): threadtime's PID, `-v brief`'s `( 9578)`, Studio's `10962-10962/`.
    private static func pid(_ b: UnsafeBufferPointer<UInt8>, from start: Int, end: Int) -> Int? {
        var i = start
        while i < end {
            guard isDigit(b[i]), i > 0, b[i - 1] == 0x20 || b[i - 1] == 0x28 else {
                i += 1
                continue
            }
            var j = i
            var value = 0
            while j < end, isDigit(b[j]), j - i < 9 {
                value = value * 10 + Int(b[j] - 0x30)
                j += 1
            }
            if j == end || [0x20, 0x2D, 0x29, 0x2F, 0x3A].contains(b[j]) { return value }
            i = j
        }
        return nil
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private static func number(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> Int? {
        guard start >= 0, start + count <= b.count else { return nil }
        var value = 0
        for i in start..<(start + count) {
            guard isDigit(b[i]) else { return nil }
            value = value * 10 + Int(b[i] - 0x30)
        }
        return value
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (the ISO 8601 reader's).
    package static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
        ISO8601.days(fromCivil: year, month, day)
    }
}
