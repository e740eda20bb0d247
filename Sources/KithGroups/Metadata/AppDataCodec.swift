import KithCanonical
import SwiftProtobuf

/// The one codec path between a protobuf record and appData text: serialize, frame (``AppDataFrame``), base64url;
/// and back, with every bound checked before the next step runs.
enum AppDataCodec {
    /// The protobuf decoding options: unknown fields kept, nesting bounded.
    static var decodingOptions: BinaryDecodingOptions {
        var options = BinaryDecodingOptions()
        options.messageDepthLimit = MetadataLimits.maxMessageDepth
        options.discardUnknownFields = false
        return options
    }

    /// The protobuf encoding options: map entries sorted, so equal values always give equal bytes.
    static var encodingOptions: BinaryEncodingOptions {
        var options = BinaryEncodingOptions()
        options.useDeterministicOrdering = true
        return options
    }

    /// Encodes a record as appData text (the caller checks the length).
    static func encode(_ message: Kith_Convos_ConversationCustomMetadata) throws(ConversationMetadataError) -> String {
        let protobuf: [UInt8]
        do {
            protobuf = try message.serializedBytes(options: encodingOptions)
        } catch {
            throw .encodingFailed("\(error)")
        }
        return Base64URL.encode(AppDataFrame.pack(protobuf))
    }

    /// Decodes appData text into a record.
    static func decode(_ text: String) throws(ConversationMetadataError) -> Kith_Convos_ConversationCustomMetadata {
        let length = text.utf8.count
        guard length <= MetadataLimits.maxEncodedBytes else {
            throw .appDataTooLarge(bytes: length, limit: MetadataLimits.maxEncodedBytes)
        }
        let frame: [UInt8]
        do {
            frame = try Base64URL.decode(text)
        } catch {
            throw .invalidBase64URL(error)
        }
        let protobuf = try AppDataFrame.unpack(frame)
        do {
            return try Kith_Convos_ConversationCustomMetadata(serializedBytes: protobuf, options: decodingOptions)
        } catch {
            throw .malformedProtobuf("\(error)")
        }
    }
}
