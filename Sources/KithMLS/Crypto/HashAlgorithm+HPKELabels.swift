/// The labeled KDF functions of HPKE (RFC 9180 §4), with the caller's `suite_id`.
extension HashAlgorithm {
    /// `LabeledExtract(salt, label, ikm) = Extract(salt, "HPKE-v1" || suite_id || label || ikm)`.
    func labeledExtract(suiteID: [UInt8], salt: [UInt8], label: String, ikm: [UInt8]) -> [UInt8] {
        var input = Self.hpkeVersionLabel
        input.reserveCapacity(input.count + suiteID.count + label.utf8.count + ikm.count)
        input += suiteID
        input += label.utf8
        input += ikm
        return extract(salt: salt, ikm: input)
    }

    /// `LabeledExpand(prk, label, info, L) = Expand(prk, I2OSP(L, 2) || "HPKE-v1" || suite_id || label || info, L)`.
    func labeledExpand(suiteID: [UInt8], prk: [UInt8], label: String, info: [UInt8], length: Int) throws -> [UInt8] {
        guard length >= 0, length <= Int(UInt16.max) else { throw MLSCryptoError.invalidLength("HPKE LabeledExpand length \(length)") }
        var labeled: [UInt8] = [UInt8(length >> 8), UInt8(length & 0xFF)]
        labeled.reserveCapacity(2 + Self.hpkeVersionLabel.count + suiteID.count + label.utf8.count + info.count)
        labeled += Self.hpkeVersionLabel
        labeled += suiteID
        labeled += label.utf8
        labeled += info
        return try expand(prk: prk, info: labeled, length: length)
    }

    /// `"HPKE-v1"`.
    private static let hpkeVersionLabel = Array("HPKE-v1".utf8)

    /// The RFC 9180 KDF identifier of HKDF with this hash.
    var hpkeIdentifier: UInt16 {
        switch self {
        case .sha256: 0x0001
        case .sha384: 0x0002
        case .sha512: 0x0003
        }
    }
}
