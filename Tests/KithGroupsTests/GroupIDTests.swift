import KithCanonical
import Testing

@testable import KithGroups

@Suite struct GroupIDTests {
    @Test func roundTripsThroughText() throws {
        let id = GroupID.random()
        #expect(id.rawBytes.count == 32)
        #expect(try GroupID(id.string) == id)
        #expect(id.audience == "group:" + id.string)
    }

    /// One draw in 64 would begin with `-`, which `kith group show ID` read as options (an id `-h…` printed the help);
    /// 2,000 draws meet about 31 such ids without the redraw.
    @Test func aRandomIDNeverBeginsWithADash() {
        for _ in 0..<2_000 { #expect(!GroupID.random().string.hasPrefix("-")) }
    }

    @Test func rejectsWrongLengthsAndAlphabets() {
        #expect(throws: GroupError.self) { try GroupID("abc") }
        #expect(throws: GroupError.self) { try GroupID(String(repeating: "+", count: 43)) }
        #expect(throws: GroupError.self) { try GroupID(rawBytes: [1, 2, 3]) }
    }
}
