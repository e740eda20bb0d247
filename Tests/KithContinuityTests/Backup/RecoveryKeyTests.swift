import Testing
@testable import KithContinuity

@Suite struct RecoveryKeyTests {
    @Test func textIsSixtyFourCharactersInSixteenGroups() throws {
        let key = RecoveryKey.generate()
        #expect(key.compactText.count == 64)
        let groups = key.groupedText.split(separator: " ")
        #expect(groups.count == 16)
        #expect(groups.allSatisfy { $0.count == 4 })
        #expect(try RecoveryKey(text: key.groupedText) == key)
        #expect(RecoveryKey.generate() != key)
    }

    @Test func parsingForgivesSpacingCaseAndLookalikes() throws {
        let key = BackupFixtures.key
        let typed = key.groupedText.lowercased().replacingOccurrences(of: " ", with: "-")
        #expect(try RecoveryKey(text: "  " + typed + "\n") == key)
        let withLookalikes = key.compactText.replacingOccurrences(of: "0", with: "o").replacingOccurrences(of: "1", with: "l")
        #expect(try RecoveryKey(text: withLookalikes) == key)
    }

    @Test func mistypedKeysAreRefused() throws {
        let text = Array(BackupFixtures.key.compactText)
        var changed = text
        changed[5] = changed[5] == "A" ? "B" : "A"
        #expect(throws: BackupError.invalidRecoveryKey("its checksum does not match (a character is mistyped)")) {
            try RecoveryKey(text: String(changed))
        }
        #expect(throws: BackupError.self) { try RecoveryKey(text: String(text.dropLast())) }
        #expect(throws: BackupError.self) { try RecoveryKey(text: String(text) + "0") }
        #expect(throws: BackupError.self) { try RecoveryKey(text: String(text.dropLast()) + "U") }
        #expect(throws: BackupError.self) { try RecoveryKey(text: String(repeating: "é", count: 64)) }
        #expect(throws: BackupError.self) { try RecoveryKey(bytes: [1, 2, 3]) }
    }
}
