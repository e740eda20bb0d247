/// Why a nearby beacon was not understood, or the LAN transport failed.
public enum NearbyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The datagram does not start with "KNB" or is shorter than a beacon header.
    case notABeacon
    /// A beacon of another version.
    case unsupportedVersion(UInt8)
    /// The tag count is 0, above the maximum, or not what the datagram length says.
    case invalidTagCount(Int)
    /// The TCP port is 0.
    case invalidPort
    /// The multicast socket could not be opened, joined or written.
    case transport(String)

    public var description: String {
        switch self {
        case .notABeacon: "datagram is not a Kith nearby beacon"
        case .unsupportedVersion(let version): "nearby beacon version \(version) is not supported"
        case .invalidTagCount(let count): "nearby beacon with an invalid tag count (\(count))"
        case .invalidPort: "nearby beacon announces TCP port 0"
        case .transport(let detail): "nearby multicast failed: \(detail)"
        }
    }
}
