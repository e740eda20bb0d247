import KithInvites
import Testing

/// The invite exchange's messages: round trips and every rejection of the bounded decoder.
struct InviteExchangeMessageTests {
    @Test func everyKindRoundTrips() throws {
        let messages: [InviteExchangeMessage] = [
            .cardRequest(commitment: [UInt8](repeating: 7, count: 32)),
            .creatorCard([1, 2, 3]),
            .joinRequest(code: "kith://invite/abc", card: [UInt8](repeating: 9, count: 1_460), keyPackage: [4, 5]),
            .welcome([UInt8](repeating: 3, count: 5_000), tree: []),
            .welcome([1], tree: [UInt8](repeating: 2, count: 70_000)),
            .refusal(error: "invite_used", reason: "used ✓"),
        ]
        for message in messages {
            #expect(try InviteExchangeMessage(decoding: message.encoded()) == message)
        }
    }

    @Test func malformedMessagesAreRefused() throws {
        let good = try InviteExchangeMessage.joinRequest(code: "abc", card: [1], keyPackage: [2]).encoded()
        let cases: [(String, [UInt8])] = [
            ("empty", []),
            ("unknown kind", [0x09, 0x00]),
            ("truncated", Array(good.dropLast())),
            ("trailing byte", good + [0]),
            ("card length over the bound", [0x01, 0xFF, 0xFF] + [UInt8](repeating: 0, count: 10)),
            ("code not printable", [0x02, 0x00, 0x01, 0x1B, 0x00, 0x00, 0x00, 0x00]),
            ("short commitment", [0x05] + [UInt8](repeating: 0, count: 31)),
            ("welcome length over the bound", [0x03, 0x7F, 0xFF, 0xFF, 0xFF]),
            ("tree length over the bound", [0x03, 0x00, 0x00, 0x00, 0x00, 0x7F, 0xFF, 0xFF, 0xFF]),
            ("reason not UTF-8", [0x04, 0x01, 0x41, 0x00, 0x01, 0xFF]),
            ("error kind over the bound", [0x04, 0x40] + [UInt8](repeating: 0x41, count: 64) + [0x00, 0x00]),
            ("oversized message", [0x03] + [UInt8](repeating: 0, count: InviteExchangeMessage.maxEncodedBytes)),
        ]
        for (name, bytes) in cases {
            #expect(throws: InviteExchangeError.self, "\(name)") { try InviteExchangeMessage(decoding: bytes) }
        }
    }

    @Test func oversizedFieldsAreNotEncoded() {
        #expect(throws: InviteExchangeError.self) {
            try InviteExchangeMessage.creatorCard([UInt8](repeating: 0, count: InviteExchangeMessage.maxCardBytes + 1)).encoded()
        }
        #expect(throws: InviteExchangeError.self) { try InviteExchangeMessage.cardRequest(commitment: [1]).encoded() }
    }

    @Test func aLongReasonIsCutAtACharacterBoundary() throws {
        let long = String(repeating: "é", count: 400)
        guard case .refusal(_, let reason) = try InviteExchangeMessage(decoding: InviteExchangeMessage.refusal(error: "x", reason: long).encoded()) else {
            Issue.record("not a refusal")
            return
        }
        #expect(reason.utf8.count <= InviteExchangeMessage.maxReasonBytes && reason.allSatisfy { $0 == "é" })
    }

    @Test func theLargestJoinerMessageFitsTheCreatorsBoundAndAWelcomeDoesNot() throws {
        let request = InviteExchangeMessage.joinRequest(
            code: String(repeating: "a", count: InviteExchangeMessage.maxCodeBytes),
            card: [UInt8](repeating: 1, count: InviteExchangeMessage.maxCardBytes),
            keyPackage: [UInt8](repeating: 2, count: InviteExchangeMessage.maxKeyPackageBytes))
        #expect(try request.encoded().count == InviteExchangeMessage.maxJoinerMessageBytes)
        #expect(try InviteExchangeMessage.cardRequest(commitment: [UInt8](repeating: 3, count: 32)).encoded().count <= InviteExchangeMessage.maxJoinerMessageBytes)
        let welcome = InviteExchangeMessage.welcome([UInt8](repeating: 4, count: 20_000), tree: [])
        #expect(try welcome.encoded().count > InviteExchangeMessage.maxJoinerMessageBytes)
    }
}
