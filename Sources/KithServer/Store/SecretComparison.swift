import KithCanonical
import KithRendezvous

/// Comparisons of secret identifiers whose time does not depend on where they differ.
enum SecretComparison {
    /// True when both texts are equal byte for byte, compared in constant time for equal lengths.
    static func equal(_ lhs: String, _ rhs: String) -> Bool {
        ConstantTime.equals(Array(lhs.utf8), Array(rhs.utf8))
    }

    /// True when both device ids are equal (constant time).
    static func equal(_ lhs: DeviceID, _ rhs: DeviceID) -> Bool { equal(lhs.text, rhs.text) }
}
