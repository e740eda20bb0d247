import KithRendezvous
import Testing

@Suite("ExpiryTimestamp: JavaScript's toISOString form")
struct ExpiryTimestampTests {
    @Test("known instants format exactly", arguments: [
        (Int64(0), "1970-01-01T00:00:00.000Z"),
        (Int64(951_782_400_000), "2000-02-29T00:00:00.000Z"),
        (Int64(1_735_689_599_999), "2024-12-31T23:59:59.999Z"),
        (Int64(4_107_542_400_000), "2100-03-01T00:00:00.000Z"),
        (Int64(253_402_300_799_999), "9999-12-31T23:59:59.999Z"),
    ])
    func format(milliseconds: Int64, text: String) throws {
        let timestamp = ExpiryTimestamp(millisecondsSinceEpoch: milliseconds)
        #expect(timestamp.iso8601 == text)
        #expect(ExpiryTimestamp(iso8601: text) == timestamp)
    }

    @Test("parsing accepts the form without milliseconds and rejects impossible dates")
    func parsing() {
        #expect(ExpiryTimestamp(iso8601: "2025-01-01T00:00:00Z")?.millisecondsSinceEpoch == 1_735_689_600_000)
        for bad in ["2025-02-29T00:00:00.000Z", "2025-13-01T00:00:00.000Z", "2025-01-01T24:00:00.000Z", "2025-01-01 00:00:00.000Z",
                    "2025-01-01T00:00:00.000", "1969-12-31T23:59:59.999Z", "2025-01-01T00:00:00.00aZ", ""] {
            #expect(ExpiryTimestamp(iso8601: bad) == nil, "\(bad)")
        }
    }

    @Test("every day of several years round-trips")
    func roundTrip() {
        var milliseconds: Int64 = 946_684_800_000  // 2000-01-01
        for _ in 0..<(366 * 5) {
            let timestamp = ExpiryTimestamp(millisecondsSinceEpoch: milliseconds + 45_296_789)
            #expect(ExpiryTimestamp(iso8601: timestamp.iso8601) == timestamp)
            milliseconds += 86_400_000
        }
    }
}
