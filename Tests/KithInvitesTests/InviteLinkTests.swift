import KithInvites
import Testing

/// Every URL form of the reference, Kith's own, and the refusals.
struct InviteLinkTests {
    static let code = String(repeating: "Ab9_-", count: 12)

    @Test func everyForm() throws {
        let cases: [(String, InviteLink.Form)] = [
            ("https://popup.convos.org/v2?i=\(Self.code)", .v2Query(host: "popup.convos.org")),
            ("https://dev.convos.org/v2?i=\(Self.code)&x=1", .v2Query(host: "dev.convos.org")),
            ("https://convos.org/i/\(Self.code)", .path(host: "convos.org")),
            ("https://popup.convos.org/join?code=\(Self.code)", .codeQuery(host: "popup.convos.org")),
            ("convos://join/\(Self.code)", .convosScheme("convos")),
            ("convos-dev://invite/\(Self.code)", .convosScheme("convos-dev")),
            ("kith://invite/\(Self.code)", .kithScheme),
            ("  \(Self.code)\n", .bare),
        ]
        for (text, form) in cases {
            let link = try InviteLink(parsing: text)
            #expect(link.code == Self.code, "\(text)")
            #expect(link.form == form, "\(text)")
        }
    }

    @Test func separatorsAndPercentEscapesSurvive() throws {
        let starred = Self.code + "*" + Self.code
        #expect(try InviteLink(parsing: "https://popup.convos.org/v2?i=\(starred)").code == starred)
        #expect(try InviteLink(parsing: "https://popup.convos.org/v2?i=\(Self.code)%2A\(Self.code)").code == starred)
    }

    @Test func generatedURLs() {
        #expect(InviteLink.convosURL(code: "abc") == "https://popup.convos.org/v2?i=abc")
        #expect(InviteLink.convosURL(code: "abc", production: false) == "https://dev.convos.org/v2?i=abc")
        #expect(InviteLink.kithURL(code: "abc") == "kith://invite/abc")
    }

    @Test func theQRFormReadsBackAsTheSameCode() throws {
        // 60 characters of base64url = 45 bytes, so the code survives a round trip exactly.
        let text = try InviteLink.kithQRText(code: Self.code)
        #expect(text.hasPrefix("KITH://QR/"))
        // Every character is in the QR alphanumeric set (digits, A-Z, space, $%*+-./:).
        #expect(text.unicodeScalars.allSatisfy { "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:".unicodeScalars.contains($0) })
        let link = try InviteLink(parsing: text)
        #expect(link.code == Self.code && link.form == .kithQR)
        // A scanner or a user that lowered the case still reads it; `*` separators of a long code are dropped.
        #expect(try InviteLink(parsing: text.lowercased()).code == Self.code)
        #expect(try InviteLink.kithQRText(code: Self.code + "*" + Self.code) == InviteLink.kithQRText(code: Self.code + Self.code))
        // Not base32, or too short once decoded: refused with a reason, like any other form.
        #expect(throws: InviteError.self) { try InviteLink(parsing: "KITH://QR/0189") }
        #expect(throws: InviteError.self) { try InviteLink(parsing: "KITH://QR/MFRGG") }
        #expect(throws: InviteError.self) { try InviteLink(parsing: "KITH://QR/" + String(repeating: "A", count: InviteLimits.maxCodeCharacters * 2)) }
        #expect(throws: InviteError.invalidBase64URL) { try InviteLink.kithQRText(code: "not base64url!") }
    }

    @Test func refusals() {
        #expect(throws: InviteError.codeTooShort(characters: 10, minimum: 50)) { try InviteLink(parsing: "abcdefghij") }
        #expect(throws: InviteError.self) { try InviteLink(parsing: "http://popup.convos.org/v2?i=\(Self.code)") }
        #expect(throws: InviteError.self) { try InviteLink(parsing: "https://popup.convos.org/other/\(Self.code)") }
        #expect(throws: InviteError.self) { try InviteLink(parsing: "ftp://x/i/\(Self.code)") }
        #expect(throws: InviteError.invalidCodeCharacter(offset: 0)) { try InviteLink(parsing: "<" + Self.code) }
        #expect(throws: InviteError.self) { try InviteLink(parsing: "https://x/v2?i=\(Self.code)<script>") }
    }
}
