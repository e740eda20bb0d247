import KithCanonical
import KithConvos

/// The binary frame inside an invite code: the serialized SignedInvite, or
/// `0x1F ‖ u32be(length) ‖ raw DEFLATE(SignedInvite)` when that is shorter.
///
/// Reading also accepts zlib-wrapped bodies (convos-cli writes them; Convos iOS cannot read them) and caps the
/// declared size at ``InviteLimits/maxSignedInviteBytes`` and the ratio at ``InviteLimits/maxCompressionRatio``.
public enum InviteFrame {
    /// The first byte of a compressed frame (an uncompressed SignedInvite starts with `0x0A`).
    public static let compressionMarker: UInt8 = 0x1F

    /// Frames a serialized SignedInvite, compressing only when the whole frame gets shorter.
    public static func pack(_ signedInvite: [UInt8]) -> [UInt8] {
        guard signedInvite.count <= InviteLimits.maxSignedInviteBytes,
            let body = Deflate.compressRaw(signedInvite),
            5 + body.count < signedInvite.count
        else { return signedInvite }
        let length = UInt32(signedInvite.count)
        return [compressionMarker, UInt8(length >> 24), UInt8((length >> 16) & 0xFF), UInt8((length >> 8) & 0xFF),
                UInt8(length & 0xFF)] + body
    }

    /// The serialized SignedInvite inside a frame.
    ///
    /// - Throws: ``InviteError/truncatedFrame(bytes:)``, ``InviteError/declaredSizeOutOfRange(declared:limit:)``,
    ///   ``InviteError/compressionRatioTooHigh(declared:compressedBytes:limit:)``,
    ///   ``InviteError/corruptCompressedBody``, ``InviteError/decompressedSizeMismatch(declared:actual:)`` or
    ///   ``InviteError/signedInviteTooLarge(bytes:limit:)``.
    public static func unpack(_ frame: [UInt8]) throws(InviteError) -> [UInt8] {
        guard frame.first == compressionMarker else {
            guard frame.count <= InviteLimits.maxSignedInviteBytes else {
                throw .signedInviteTooLarge(bytes: frame.count, limit: InviteLimits.maxSignedInviteBytes)
            }
            return frame
        }
        var reader = ByteReader(frame)
        let declared: Int
        do {
            _ = try reader.readUInt8()
            declared = Int(try reader.readUInt32())
        } catch {
            throw .truncatedFrame(bytes: frame.count)
        }
        let body = reader.readRemaining()
        guard !body.isEmpty else { throw .truncatedFrame(bytes: frame.count) }
        guard declared > 0, declared <= InviteLimits.maxSignedInviteBytes else {
            throw .declaredSizeOutOfRange(declared: declared, limit: InviteLimits.maxSignedInviteBytes)
        }
        guard declared <= body.count * InviteLimits.maxCompressionRatio else {
            throw .compressionRatioTooHigh(
                declared: declared, compressedBytes: body.count, limit: InviteLimits.maxCompressionRatio)
        }
        var failure = InviteError.corruptCompressedBody
        // Raw DEFLATE first (Convos iOS and Kith), then zlib-wrapped (convos-cli).
        for format in [Deflate.Format.raw, .zlib] {
            switch Deflate.inflate(body[...], format: format, expectedLength: declared) {
            case .inflated(let output): return output
            case .wrongLength(let actual): failure = .decompressedSizeMismatch(declared: declared, actual: actual)
            case .corrupt: continue
            }
        }
        throw failure
    }
}
