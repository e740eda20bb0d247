import Crypto
import KithCanonical
import KithInvites
import KithRendezvous

/// The HTML of the invite page: one static inline stylesheet (allowed by its hash in the Content-Security-Policy),
/// no script, no image, no form, no external resource. Every value from the invite goes through
/// ``HTMLText/escaped(_:)``.
enum InvitePageHTML {
    /// The stylesheet; its SHA-256 is the only style source the policy allows.
    static let stylesheet = """
        body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f6f5f2;color:#1d1d1f}\
        main{max-width:34rem;margin:2rem auto;padding:1.5rem;background:#fff;border-radius:12px;box-shadow:0 1px 4px #0002}\
        h1{font-size:1.5rem;margin:0 0 .5rem;overflow-wrap:anywhere}.emoji{font-size:2.5rem}\
        .desc{white-space:pre-wrap;overflow-wrap:anywhere}dl{margin:1rem 0}dt{font-weight:600;margin-top:.6rem}\
        dd{margin:0;overflow-wrap:anywhere}.bad{color:#b00020;font-weight:600}.ok{color:#0a6b2b;font-weight:600}\
        code{font:13px/1.4 ui-monospace,monospace;background:#f0efe9;padding:.1rem .3rem;border-radius:4px;overflow-wrap:anywhere}\
        a.open{display:inline-block;margin:1rem 0;padding:.6rem 1.2rem;background:#1d1d1f;color:#fff;border-radius:8px;text-decoration:none}\
        .note{color:#666;font-size:.9rem}
        """

    /// The `Content-Security-Policy` value: nothing but the stylesheet above.
    static let contentSecurityPolicy: String = {
        var digest = String(Base64URL.encode(Array(SHA256.hash(data: Array(stylesheet.utf8))))
            .map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        digest += String(repeating: "=", count: (4 - digest.utf8.count % 4) % 4)
        return "default-src 'none'; style-src 'sha256-\(digest)'; img-src 'none'; script-src 'none'; "
            + "connect-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    }()

    /// The page for a decoded invite.
    static func page(_ preview: InvitePreview) -> String {
        let title = preview.name.flatMap { $0.isEmpty ? nil : $0 } ?? "A Kith or Convos conversation"
        var body = ""
        if let emoji = preview.emoji, !emoji.isEmpty {
            body += "<div class=\"emoji\" id=\"emoji\">\(HTMLText.escaped(emoji))</div>\n"
        }
        body += "<h1 id=\"name\">\(HTMLText.escaped(title))</h1>\n"
        if let description = preview.description, !description.isEmpty {
            body += "<p class=\"desc\" id=\"description\">\(HTMLText.escaped(description))</p>\n"
        }
        if preview.hasImage {
            body += "<p class=\"note\" id=\"image\">The invite names an image; this page does not load it "
                + "(it could track who opens the link).</p>\n"
        }
        body += "<dl>\n"
        body += item("Invite", id: "expiry", expiryText(preview.expiry, what: "invite"))
        if preview.conversationExpiry != .none {
            body += item("Conversation", id: "conversation-expiry", expiryText(preview.conversationExpiry, what: "conversation"))
        }
        body += item("Use", id: "use", preview.singleUse ? "single use: the first person to join consumes it" : "reusable until it expires or is revoked")
        body += item("Signature", id: "signature", signatureText(preview.signer))
        body += item("Creator id", id: "creator", "<code>\(HTMLText.escaped(preview.creatorID))</code>")
        if preview.legacyFormat { body += item("Format", id: "format", "legacy (October 2025) Convos invite") }
        body += "</dl>\n"
        let appLink = HTMLText.escaped(InviteLink.kithURL(code: preview.code))
        body += "<a class=\"open\" id=\"open\" href=\"\(appLink)\">Open in Kith</a>\n"
        // Quoted: a code carries `*` separators, which a shell would otherwise expand.
        body += "<p>Or on the command line:</p>\n<p><code id=\"command\">kith invite accept &#39;\(appLink)&#39;</code></p>\n"
        body += "<p class=\"note\">This page was made from the link alone: the server keeps no record of who opened which invite. "
            + "Joining asks the creator, who decides.</p>\n"
        return document(title: "Invite: " + title, body: body)
    }

    /// The page for a link that is not a readable invite.
    static func rejection(reason: String) -> String {
        let body = "<h1 id=\"name\">Not a valid invite</h1>\n<p id=\"reason\" class=\"bad\">\(HTMLText.escaped(reason))</p>\n"
            + "<p class=\"note\">Ask the person who sent it for a new link.</p>\n"
        return document(title: "Not a valid invite", body: body)
    }

    private static func document(title: String, body: String) -> String {
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            + "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
            + "<meta name=\"referrer\" content=\"no-referrer\">"
            + "<title>\(HTMLText.escaped(title))</title><style>\(stylesheet)</style></head>\n"
            + "<body><main>\n\(body)</main></body></html>\n"
    }

    private static func item(_ term: String, id: String, _ html: String) -> String {
        "<dt>\(term)</dt><dd id=\"\(id)\">\(html)</dd>\n"
    }

    private static func expiryText(_ expiry: InvitePreview.Expiry, what: String) -> String {
        switch expiry {
        case .none: return "no expiry"
        case .expiresAt(let unix): return "expires at \(utc(unix))"
        case .expired(let unix): return "<span class=\"bad\">expired</span> at \(utc(unix)): this \(what) can no longer be joined"
        }
    }

    private static func signatureText(_ signer: InvitePreview.Signer) -> String {
        switch signer {
        case .recovered(let address, let nonce?):
            return "<span class=\"ok\">verifies</span>: signed by <code>\(address)</code>, the key that owns the creator's "
                + "inbox id (nonce \(nonce))"
        case .recovered(let address, nil):
            return "<span class=\"ok\">recovers</span> signer <code>\(address)</code>; the creator id is not this key's "
                + "XMTP inbox (a Kith invite names a Kith feed id there: <code>kith invite show</code> checks the signer against your contacts)"
        case .unrecoverable(let reason):
            return "<span class=\"bad\">does not verify</span>: \(HTMLText.escaped(reason))"
        }
    }

    /// `unix` as ISO 8601 UTC, clamped to years 1970...9999.
    private static func utc(_ unix: Int64) -> String {
        let seconds = min(max(unix, 0), 253_402_300_799)
        return ExpiryTimestamp(millisecondsSinceEpoch: seconds * 1_000).iso8601 + (seconds == unix ? "" : " (out of range)")
    }
}
