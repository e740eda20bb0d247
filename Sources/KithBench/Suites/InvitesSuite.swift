import CQREncode
import KithConvos
import KithGroups
import KithIdentity
import KithInvites

/// Invites (docs/INVITES.md): signing and encoding, decoding and verifying, and the size of a typical invite as a
/// link and as a QR code (libqrencode, byte mode, error correction level M).
enum InvitesSuite: BenchSuite {
    static let name = "invites"

    static func run(report: (BenchFigure) -> Void) async throws {
        let seed = try Seed(bytes: [UInt8](repeating: 7, count: 32))
        let key = try InviteSigningKey(seed: seed)
        let inbox = InboxID(feedID: try Identity(seed: seed).feedID)
        let group = GroupID.random().string
        func typical() throws -> SignedInvite {
            let token = try ConversationToken.seal(conversationID: group, creatorKey: key, creatorInboxID: inbox)
            let payload = InvitePayload(
                conversationToken: token, creatorInboxID: inbox, tag: ConversationTag.random().string, name: "Book club",
                conversationExpiresAtUnix: 1_893_456_000, expiresAtUnix: 1_790_604_800, expiresAfterUse: true, emoji: "📚")
            return try SignedInvite(signing: payload, with: key)
        }
        var code = ""
        let create = try BenchClock.rate { code = InviteCode.encode(try typical()) }
        report(BenchFigure(name: "invites.create_encode_per_s", value: create, unit: "ops/s"))
        let decode = try BenchClock.rate {
            let invite = try InviteCode.decode(try InviteLink(parsing: InviteLink.kithURL(code: code)).code)
            try invite.verify(expectedSigner: key.publicKey)
        }
        report(BenchFigure(name: "invites.decode_verify_per_s", value: decode, unit: "ops/s"))
        let url = InviteLink.kithURL(code: code)
        report(BenchFigure(name: "invites.typical_code_chars", value: Double(code.count), unit: "chars"))
        report(BenchFigure(name: "invites.typical_url_chars", value: Double(url.count), unit: "chars"))
        report(BenchFigure(name: "invites.typical_url_qr_version_M", value: Double(qrVersion(url)), unit: "version"))
        report(BenchFigure(name: "invites.typical_convos_url_qr_version_M", value: Double(qrVersion(InviteLink.convosURL(code: code))), unit: "version"))
        report(BenchFigure(name: "invites.typical_qr_text_qr_version_M", value: Double(segmentedQRVersion(try InviteLink.kithQRText(code: code))), unit: "version"))
        let card = try ContactCard.create(
            identity: try Identity(seed: seed), displayName: "Alice", createdAt: 1_790_000_000, extensions: [.inviteKey(key.publicKey)])
        report(BenchFigure(name: "invites.full_card_chars", value: Double(card.text.count), unit: "chars"))
        report(BenchFigure(name: "invites.full_card_qr_version_M", value: Double(qrVersion(card.text)), unit: "version"))
        // The same invite for joiners who never met the creator: field 1000 carries the compact card, a server and a
        // join code (docs/INVITES.md, "Joiners who never met the creator").
        let compact = try CompactContactCard.create(identity: try Identity(seed: seed), card: card)
        var strangers = try typical().payload
        strangers.reach = InviteReach(compactCardBytes: compact.encoded, server: "https://kith.example.org", joinCode: "k3v9x2m8q4w7z1p5r6t0")
        let strangerCode = InviteCode.encode(try SignedInvite(signing: strangers, with: key))
        let strangerURL = InviteLink.kithURL(code: strangerCode)
        report(BenchFigure(name: "invites.strangers_code_chars", value: Double(strangerCode.count), unit: "chars"))
        report(BenchFigure(name: "invites.strangers_url_qr_version_M", value: Double(qrVersion(strangerURL)), unit: "version"))
        report(BenchFigure(
            name: "invites.strangers_qr_text_qr_version_M", value: Double(segmentedQRVersion(try InviteLink.kithQRText(code: strangerCode))),
            unit: "version"))
    }

    /// The QR version libqrencode picks for `text` at level M with its optimal segmentation (alphanumeric runs in
    /// alphanumeric mode), as `kith invite create` draws it (0 when it does not fit).
    static func segmentedQRVersion(_ text: String) -> Int {
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else { return 0 }
        defer { QRcode_free(code) }
        return Int(code.pointee.version)
    }

    /// The QR version libqrencode picks for `text` at level M (0 when it does not fit).
    static func qrVersion(_ text: String) -> Int {
        guard let code = QRcode_encodeString8bit(text, 0, QR_ECLEVEL_M) else { return 0 }
        defer { QRcode_free(code) }
        return Int(code.pointee.version)
    }
}
