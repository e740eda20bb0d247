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

    @Test func rejectsWrongLengthsAndAlphabets() {
        #expect(throws: GroupError.self) { try GroupID("abc") }
        #expect(throws: GroupError.self) { try GroupID(String(repeating: "+", count: 43)) }
        #expect(throws: GroupError.self) { try GroupID(rawBytes: [1, 2, 3]) }
    }
}
