import Foundation
import KithCanonical

/// The plaintext inside a conversation token: a conversation id packed as Convos packs it.
///
/// - A UUID (as `UUID(uuidString:)` parses it): `0x01 ‖ 16 bytes`; it unpacks as lowercase text.
/// - Any other UTF-8 string of 1...255 bytes: `0x02 ‖ len8 ‖ utf8`.
/// - 256...65,535 bytes: `0x02 ‖ 0x00 ‖ len16be ‖ utf8`.
enum ConversationIDPacking {
    static let uuidForm: UInt8 = 0x01
    static let stringForm: UInt8 = 0x02

    static func pack(_ conversationID: String) throws(InviteError) -> [UInt8] {
        if let uuid = UUID(uuidString: conversationID) {
            let value = uuid.uuid
            return [uuidForm, value.0, value.1, value.2, value.3, value.4, value.5, value.6, value.7,
                    value.8, value.9, value.10, value.11, value.12, value.13, value.14, value.15]
        }
        let utf8 = Array(conversationID.utf8)
        guard (1...InviteLimits.maxConversationIDBytes).contains(utf8.count) else {
            throw .conversationIDSizeOutOfRange(bytes: utf8.count)
        }
        if utf8.count <= 255 { return [stringForm, UInt8(utf8.count)] + utf8 }
        return [stringForm, 0, UInt8(utf8.count >> 8), UInt8(utf8.count & 0xFF)] + utf8
    }

    static func unpack(_ plaintext: [UInt8]) throws(InviteError) -> String {
        var reader = ByteReader(plaintext)
        do {
            switch try reader.readUInt8() {
            case uuidForm:
                let raw = try reader.readBytes(16)
                try reader.expectEnd()
                let uuid = UUID(uuid: (raw[0], raw[1], raw[2], raw[3], raw[4], raw[5], raw[6], raw[7],
                                       raw[8], raw[9], raw[10], raw[11], raw[12], raw[13], raw[14], raw[15]))
                return uuid.uuidString.lowercased()
            case stringForm:
                var length = Int(try reader.readUInt8())
                if length == 0 { length = Int(try reader.readUInt16()) }
                // Kith refuses the empty id (old Convos code wrote it as 0x02 0x00 0x00 0x00).
                guard length > 0 else { throw InviteError.malformedTokenPlaintext }
                let utf8 = try reader.readBytes(length)
                try reader.expectEnd()
                guard let text = String(validating: utf8, as: UTF8.self) else { throw InviteError.malformedTokenPlaintext }
                return text
            default:
                throw InviteError.malformedTokenPlaintext
            }
        } catch {
            throw .malformedTokenPlaintext
        }
    }
}
