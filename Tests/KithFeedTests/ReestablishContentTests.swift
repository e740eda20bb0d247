import KithCanonical
import Testing
@testable import KithFeed

/// The two optional fields re-establishment after a restore adds (docs/FEED-FORMAT.md, docs/CONTINUITY.md section 8):
/// `pool_reset` on `prekey_batch`, `readmit` on `mls_key_package`.
@Suite struct ReestablishContentTests {
    static let batch = Base64URL.encode([1, 0, 1] + [UInt8](repeating: 7, count: 36))
    static let keyPackage = Base64URL.encode([UInt8](repeating: 9, count: 64))
    static let group = Base64URL.encode([UInt8](repeating: 5, count: 32))

    static func parse(_ json: String) throws(FeedError) -> Content {
        let type = (try? CanonicalJSON.parse(Array(json.utf8)))?.objectValue?["type"]?.stringValue ?? ""
        return try Content.parse(Array(json.utf8), envelopeType: type)
    }

    @Test func poolResetRoundTripsAndIsAbsentWhenFalse() throws {
        let reset = Content.prekeyBatch(PrekeyBatch(batchBytes: try Base64URL.decode(Self.batch), poolReset: true))
        let bytes = try reset.canonicalBytes()
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"pool_reset":true,"prekeys":"\#(Self.batch)","type":"prekey_batch"}"#)
        #expect(try Content.parse(bytes, envelopeType: "prekey_batch") == reset)
        let plain = try Content.prekeyBatch(PrekeyBatch(batchBytes: try Base64URL.decode(Self.batch))).canonicalBytes()
        #expect(!String(decoding: plain, as: UTF8.self).contains("pool_reset"))
        guard case .prekeyBatch(let old) = try Self.parse(#"{"prekeys":"\#(Self.batch)","type":"prekey_batch"}"#) else {
            Issue.record("not a prekey batch"); return
        }
        #expect(!old.poolReset)
    }

    @Test func poolResetOtherThanTrueIsRefused() {
        for value in ["false", "1", #""true""#, "null"] {
            #expect(throws: FeedError.self, "\(value)") {
                _ = try Self.parse(#"{"pool_reset":\#(value),"prekeys":"\#(Self.batch)","type":"prekey_batch"}"#)
            }
        }
    }

    @Test func readmitRoundTripsAndMustBeAGroupID() throws {
        let request = Content.keyPackageOffer(KeyPackageOffer(keyPackageBytes: try Base64URL.decode(Self.keyPackage), readmitGroup: Self.group))
        let bytes = try request.canonicalBytes()
        #expect(try Content.parse(bytes, envelopeType: "mls_key_package") == request)
        for bad in [#""short""#, "1", #""\#(Base64URL.encode([UInt8](repeating: 5, count: 33)))""#] {
            #expect(throws: FeedError.self, "\(bad)") {
                _ = try Self.parse(#"{"key_package":"\#(Self.keyPackage)","readmit":\#(bad),"type":"mls_key_package"}"#)
            }
        }
        guard case .keyPackageOffer(let offer) = try Self.parse(#"{"key_package":"\#(Self.keyPackage)","type":"mls_key_package"}"#) else {
            Issue.record("not an offer"); return
        }
        #expect(offer.readmitGroup == nil)
    }
}
