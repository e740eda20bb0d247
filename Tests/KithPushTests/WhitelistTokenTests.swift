import Testing
@testable import KithPush

@Suite struct WhitelistTokenTests {
    @Test func hexRoundTrip() throws {
        let token = WhitelistToken.generate()
        #expect(token.bytes.count == 20)
        #expect(token.hex.count == 40)
        #expect(try WhitelistToken(hex: token.hex) == token)
        #expect(try WhitelistToken(hex: token.hex.uppercased()) == token)
        #expect(try WhitelistToken(hex: "1daf13e01982d3029cf09ae3d027a62923f0f2b6").hex == "1daf13e01982d3029cf09ae3d027a62923f0f2b6")
    }

    @Test func rejectsMalformedTokens() {
        #expect(throws: WhitelistTokenError.wrongLength(19)) { try WhitelistToken(hex: String(repeating: "a", count: 38)) }
        #expect(throws: WhitelistTokenError.wrongLength(20)) { try WhitelistToken(hex: String(repeating: "a", count: 41)) }
        #expect(throws: WhitelistTokenError.notHex(offset: 39)) { try WhitelistToken(hex: String(repeating: "a", count: 39) + "g") }
        #expect(throws: WhitelistTokenError.notHex(offset: 0)) { try WhitelistToken(hex: "é" + String(repeating: "a", count: 38)) }
        #expect(throws: WhitelistTokenError.wrongLength(0)) { try WhitelistToken(hex: "") }
        #expect(throws: WhitelistTokenError.wrongLength(21)) { try WhitelistToken(bytes: Array(repeating: 0, count: 21)) }
    }

    @Test func freshTokensDifferAndDescriptionIsRedacted() {
        let first = WhitelistToken.generate()
        let second = WhitelistToken.generate()
        #expect(first != second)
        #expect(!first.description.contains(first.hex))
        #expect(first.storageDigest.count == 32)
        #expect(first.storageDigest != second.storageDigest)
    }

    @Test func grantEnforcesExpiryAndToken() {
        let token = WhitelistToken.generate()
        let grant = WhitelistTokenGrant(token: token, owner: "account", createdAt: 1000, expiresAt: 2000)
        #expect(grant.accepts(token, at: 1999))
        #expect(!grant.accepts(token, at: 2000))
        #expect(!grant.accepts(WhitelistToken.generate(), at: 1500))
    }
}
