import Foundation
import KithCanonical
import KithIdentity
import KithInvites
import KithTerminal

/// Suite `qr`: text length, QR version and width (modules, no quiet zone) at error-correction level M of a typical
/// invite and of a contact card, compact and full (issue 15, items 9 and 12). Deterministic figures, not timings:
/// libqrencode picks the smallest symbol, splitting the text into numeric, alphanumeric and byte segments.
enum QRSuite: BenchSuite {
    static let name = "qr"

    static func run(report: (BenchFigure) -> Void) async throws {
        let code = try typicalInviteCode()
        try measure("qr.invite.code", code, report: report)
        try measure("qr.invite.convos_url", InviteLink.convosURL(code: code), report: report)
        try measure("qr.invite.kith_url", InviteLink.kithURL(code: code), report: report)

        let identity = try Identity(seed: try Seed(bytes: [UInt8](repeating: 0xA1, count: 32)))
        let card = try ContactCard.create(identity: identity, displayName: "Alice Martin", createdAt: 1_790_000_000)
        let compact = try CompactContactCard.create(identity: identity, card: card)
        report(BenchFigure(name: "qr.card.full.bytes", value: Double(card.encoded.count), unit: "bytes"))
        try measure("qr.card.full", card.text, report: report)
        // What `kith card --qr` drew before the compact card: the full card at level L.
        let fullAtL = try QRCode.symbol(card.text, level: .low)
        report(BenchFigure(name: "qr.card.full.qr_version_l", value: Double(fullAtL.version), unit: "version"))
        report(BenchFigure(name: "qr.card.full.qr_width_l", value: Double(fullAtL.width), unit: "modules"))
        report(BenchFigure(name: "qr.card.compact.bytes", value: Double(compact.encoded.count), unit: "bytes"))
        try measure("qr.card.compact", compact.text, report: report)
        // The same compact bytes as base64url (QR byte mode), for comparison with the base32 text (alphanumeric mode).
        try measure("qr.card.compact_base64url", Base64URL.encode(compact.encoded), report: report)
        let longest = try CompactContactCard.create(
            identity: identity, card: try ContactCard.create(identity: identity, displayName: String(repeating: "W", count: 64), createdAt: 1_790_000_000))
        try measure("qr.card.compact_longest_name", longest.text, report: report)
    }

    /// A Convos-shaped invite: 32-character group id in the token, 32-byte creator id, tag, a name, an emoji, an
    /// expiry a week out and single use, signed with a fixed key.
    static func typicalInviteCode() throws -> String {
        let key = try InviteSigningKey(rawRepresentation: [UInt8](repeating: 0x42, count: 32))
        let creator = InboxID(owner: key.publicKey, nonce: 0)
        let token = try ConversationToken.seal(
            conversationID: "0123456789abcdef0123456789abcdef", creatorKey: key, creatorInboxID: creator, nonce: Array(0..<12))
        let payload = InvitePayload(
            conversationToken: token, creatorInboxID: creator, tag: "Kx7pQ2mZ9a", name: "Book club",
            expiresAtUnix: 1_790_604_800, expiresAfterUse: true, emoji: "📚")
        return InviteCode.encode(try SignedInvite(signing: payload, with: key))
    }

    static func measure(_ name: String, _ text: String, report: (BenchFigure) -> Void) throws {
        let symbol = try QRCode.symbol(text, level: .medium)
        report(BenchFigure(name: "\(name).chars", value: Double(text.utf8.count), unit: "chars"))
        report(BenchFigure(name: "\(name).qr_version_m", value: Double(symbol.version), unit: "version"))
        report(BenchFigure(name: "\(name).qr_width_m", value: Double(symbol.width), unit: "modules"))
    }
}
