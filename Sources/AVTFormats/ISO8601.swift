/// UTC date-times with millisecond precision, without Foundation's formatters: the output must
/// be byte-identical across platforms and fast enough to stamp every record.
package enum ISO8601 {
    /// `1970-01-01T00:00:01.000Z` for epoch milliseconds. Years outside 0000–9999 get a sign and
    /// more digits (ISO-8601 expanded form) rather than wrong text.
    package static func format(epochMilliseconds ms: Int) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        append(epochMilliseconds: ms, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes the same text into reserved memory (at most 30 bytes); returns the bytes written.
    package static func write(epochMilliseconds ms: Int, to out: UnsafeMutablePointer<UInt8>) -> Int {
        let (days, msOfDay) = floorDivide(ms, 86_400_000)
        let (year, month, day) = civil(fromDays: days)
        guard (0...9999).contains(year) else {
            var text: [UInt8] = []
            append(epochMilliseconds: ms, to: &text)
            out.update(from: text, count: text.count)
            return text.count
        }
        put(year, 4, at: 0, in: out)
        out[4] = UInt8(ascii: "-")
        put(month, 2, at: 5, in: out)
        out[7] = UInt8(ascii: "-")
        put(day, 2, at: 8, in: out)
        out[10] = UInt8(ascii: "T")
        writeTimeOfDay(msOfDay, to: out + 11)
        return 24
    }

    /// `HH:MM:SS.mmmZ` (13 bytes) for milliseconds since midnight.
    fileprivate static func writeTimeOfDay(_ msOfDay: Int, to out: UnsafeMutablePointer<UInt8>) {
        put(msOfDay / 3_600_000, 2, at: 0, in: out)
        out[2] = UInt8(ascii: ":")
        put(msOfDay / 60_000 % 60, 2, at: 3, in: out)
        out[5] = UInt8(ascii: ":")
        put(msOfDay / 1000 % 60, 2, at: 6, in: out)
        out[8] = UInt8(ascii: ".")
        put(msOfDay % 1000, 3, at: 9, in: out)
        out[12] = UInt8(ascii: "Z")
    }

    /// `value` in `width` decimal digits, zero-padded, at `out[offset...]`.
    private static func put(_ value: Int, _ width: Int, at offset: Int, in out: UnsafeMutablePointer<UInt8>) {
        var v = value
        var i = offset + width - 1
        while i >= offset {
            out[i] = 0x30 &+ UInt8(truncatingIfNeeded: v % 10)
            v /= 10
            i -= 1
        }
    }

    package static func append(epochMilliseconds ms: Int, to out: inout [UInt8]) {
        let (days, msOfDay) = floorDivide(ms, 86_400_000)
        let (year, month, day) = civil(fromDays: days)
        if (0...9999).contains(year) {
            append(year, width: 4, to: &out)
        } else {
            out.append(UInt8(ascii: year < 0 ? "-" : "+"))
            let digits = String(year.magnitude)
            append(Int(digits) ?? 0, width: max(4, digits.count), to: &out)
        }
        out.append(UInt8(ascii: "-"))
        append(month, width: 2, to: &out)
        out.append(UInt8(ascii: "-"))
        append(day, width: 2, to: &out)
        out.append(UInt8(ascii: "T"))
        append(msOfDay / 3_600_000, width: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        append(msOfDay / 60_000 % 60, width: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        append(msOfDay / 1000 % 60, width: 2, to: &out)
        out.append(UInt8(ascii: "."))
        append(msOfDay % 1000, width: 3, to: &out)
        out.append(UInt8(ascii: "Z"))
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)` into epoch milliseconds; digits beyond
    /// milliseconds are truncated. Returns nil for anything else, including impossible dates.
    package static func parse(_ text: String) -> Int? {
        var scanner = Scanner(Array(text.utf8))
        guard let year = scanner.digits(4), scanner.take("-"), let month = scanner.digits(2), scanner.take("-"),
            let day = scanner.digits(2), scanner.take("T") || scanner.take("t") || scanner.take(" "),
            let hour = scanner.digits(2), scanner.take(":"), let minute = scanner.digits(2), scanner.take(":"),
            let second = scanner.digits(2)
        else { return nil }
        var millis = 0
        if scanner.take(".") {
            var count = 0
            while let digit = scanner.digit() {
                if count < 3 { millis = millis * 10 + digit }
                count += 1
            }
            guard count > 0 else { return nil }
            for _ in count..<max(count, 3) { millis *= 10 }
        }
        var offsetMinutes = 0
        if scanner.take("Z") || scanner.take("z") {
            offsetMinutes = 0
        } else if let sign = scanner.take("+") ? 1 : (scanner.take("-") ? -1 : nil) {
            guard let h = scanner.digits(2), scanner.take(":"), let m = scanner.digits(2), h < 24, m < 60 else {
                return nil
            }
            offsetMinutes = sign * (h * 60 + m)
        } else {
            return nil
        }
        guard scanner.atEnd, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
            hour < 24, minute < 60, second < 60
        else { return nil }
        let days = self.days(fromCivil: year, month, day)
        return ((days * 24 + hour) * 60 + minute - offsetMinutes) * 60_000 + second * 1000 + millis
    }

    // Howard Hinnant's days-from-civil algorithms (public domain), proleptic Gregorian calendar.
    package static func days(fromCivil year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civil(fromDays z0: Int) -> (year: Int, month: Int, day: Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    fileprivate static func floorDivide(_ a: Int, _ b: Int) -> (Int, Int) {
        let q = a / b
        let r = a % b
        return r < 0 ? (q - 1, r + b) : (q, r)
    }

    private static func append(_ value: Int, width: Int, to out: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        var v = value
        while divisor > 0 {
            out.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: v / divisor % 10))
            v %= divisor
            divisor /= 10
        }
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { index == bytes.count }

        mutating func take(_ ascii: Unicode.Scalar) -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(ascii: ascii) else { return false }
            index += 1
            return true
        }

        mutating func digit() -> Int? {
            guard index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else {
                return nil
            }
            defer { index += 1 }
            return Int(bytes[index] - UInt8(ascii: "0"))
        }

        mutating func digits(_ count: Int) -> Int? {
            var value = 0
            for _ in 0..<count {
                guard let d = digit() else { return nil }
                value = value * 10 + d
            }
            return value
        }
    }
}

extension ISO8601 {
    /// `write(epochMilliseconds:to:)` for a stream of nearby times: records fall on the same day,
    /// so that day's text (`2026-03-01T`) is kept and only the time of day is written. A
    /// calendar computation per record showed in profiles.
    package struct DayCache {
        private var day = Int.min
        /// The 11 bytes `YYYY-MM-DDT` of `day` (24-byte form only).
        private var prefix: (UInt64, UInt32) = (0, 0)

        package init() {}

        package mutating func write(epochMilliseconds ms: Int, to out: UnsafeMutablePointer<UInt8>) -> Int {
            let (days, msOfDay) = floorDivide(ms, 86_400_000)
            guard days == day else {
                let written = ISO8601.write(epochMilliseconds: ms, to: out)
                if written == 24 {
                    day = days
                    withUnsafeMutableBytes(of: &prefix) {
                        $0.copyMemory(from: UnsafeRawBufferPointer(start: out, count: 11))
                    }
                } else {
                    day = Int.min
                }
                return written
            }
            withUnsafeBytes(of: prefix) {
                UnsafeMutableRawPointer(out).copyMemory(from: $0.baseAddress!, byteCount: 11)
            }
            ISO8601.writeTimeOfDay(msOfDay, to: out + 11)
            return 24
        }
    }
}
