import KithCanonical

/// The one JSON path of the rendezvous protocol: strict, bounded parsing into an object and
/// compact serialization, for REST bodies and signaling messages alike.
public enum RendezvousJSON {
    /// Bounds for REST request and response bodies (a purge lists up to
    /// ``RendezvousLimits/maximumPurgeDeviceIDs`` ids).
    public static let restLimits = JSONLimits(
        maxBytes: RendezvousLimits.maximumRequestBodyBytes,
        maxDepth: 3,
        maxStringBytes: RendezvousLimits.maximumRequestBodyBytes,
        maxContainerElements: RendezvousLimits.maximumPurgeDeviceIDs + 8,
        maxTotalValues: 2 * RendezvousLimits.maximumPurgeDeviceIDs + 16
    )

    /// Bounds for one signaling message: a flat object, at most one nested object (an ICE
    /// candidate), a few dozen members.
    public static let signalingLimits = JSONLimits(
        maxBytes: RendezvousLimits.maximumSignalingMessageBytes,
        maxDepth: 3,
        maxStringBytes: RendezvousLimits.maximumSignalingMessageBytes,
        maxContainerElements: 32,
        maxTotalValues: 96
    )

    /// Parses `bytes` as one JSON object within `limits`.
    ///
    /// - Throws: ``RendezvousCodecError/invalidJSON(_:)`` for anything that is not strict JSON
    ///   within the bounds (duplicate keys and fractional numbers included), or
    ///   ``RendezvousCodecError/notAnObject`` for another top-level value.
    public static func parseObject<Bytes: Collection>(
        _ bytes: Bytes, limits: JSONLimits
    ) throws(RendezvousCodecError) -> JSONObject where Bytes.Element == UInt8 {
        let value: JSONValue
        do throws(CanonicalJSONError) {
            value = try CanonicalJSON.parse(bytes, limits: limits)
        } catch {
            throw .invalidJSON(error)
        }
        guard case .object(let object) = value else { throw .notAnObject }
        return object
    }

    /// The compact (RFC 8785) text of `object`.
    public static func text(_ object: JSONObject) -> String {
        String(decoding: CanonicalJSON.serialize(object), as: UTF8.self)
    }

    /// The compact (RFC 8785) bytes of `object`.
    public static func bytes(_ object: JSONObject) -> [UInt8] {
        CanonicalJSON.serialize(object)
    }
}
