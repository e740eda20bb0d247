/// ChatSecure-Push's time format, `%Y-%m-%dT%H:%M:%S.%fZ` (microseconds, literal Z), from
/// milliseconds since the epoch (UTC, proleptic Gregorian calendar).
enum GatewayTime {
    static func text(milliseconds: Int64) -> String {
        let seconds = milliseconds.quotientAndRemainder(dividingBy: 1_000)
        var whole = seconds.quotient
        var millis = seconds.remainder
        if millis < 0 { millis += 1_000; whole -= 1 }
        let dayParts = whole.quotientAndRemainder(dividingBy: 86_400)
        var days = dayParts.quotient
        var secondOfDay = dayParts.remainder
        if secondOfDay < 0 { secondOfDay += 86_400; days -= 1 }
        // Days to civil date (Howard Hinnant's algorithm).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthPrime = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthPrime + 2) / 5 + 1
        let month = monthPrime < 10 ? monthPrime + 3 : monthPrime - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func pad(_ value: Int64, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondOfDay / 3_600, 2)):\(pad(secondOfDay / 60 % 60, 2)):"
            + "\(pad(secondOfDay % 60, 2)).\(pad(millis * 1_000, 6))Z"
    }
}
