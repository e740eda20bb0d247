import KithIdentity

/// Where this identity and one contact stand with KeyPackages (`Account.Groups.keyOfferStatus()`): whether an automatic
/// offer to the contact waits unused, and how many KeyPackages each side holds of the other.
public struct KeyOfferStatus: Sendable, Equatable {
    /// The contact.
    public let contact: FeedID
    /// The contact's name as shown here.
    public let name: String
    /// This identity's KeyPackages made by automatic offers to the contact and not used yet (at most one).
    public let automaticOutstanding: Int
    /// This identity's KeyPackages shared (`kith group keys share`) or handed over to the contact and not used yet.
    public let sharedOutstanding: Int
    /// The contact's KeyPackages this identity holds: how many groups it can add the contact to now.
    public let held: Int

    /// True when an automatic offer to the contact waits unused: the contact can add this identity to a group.
    public var automaticOfferOutstanding: Bool { automaticOutstanding > 0 }

    /// A status row.
    public init(contact: FeedID, name: String, automaticOutstanding: Int, sharedOutstanding: Int, held: Int) {
        self.contact = contact
        self.name = name
        self.automaticOutstanding = automaticOutstanding
        self.sharedOutstanding = sharedOutstanding
        self.held = held
    }
}
