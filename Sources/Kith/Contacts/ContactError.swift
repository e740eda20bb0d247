import KithFeed
import KithIdentity

/// Why an operation on a contact was refused.
public enum ContactError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No contact has this name or feed id.
    case notFound(String)
    /// This feed is not a contact.
    case notAContact(FeedID)
    /// The contact's keys are a claim of their card that their feed's rotation entries have not
    /// proven yet (docs/FEED-FORMAT.md 11.1): nothing is encrypted to them until their feed syncs.
    case unverified(name: String, FeedID)
    /// The card is this identity's own.
    case ownCard
    /// A local contact name is empty or too long.
    case invalidName
    /// A contact card did not verify (signature, feed id, age, format).
    case card(ContactCardError)
    /// A compact card did not verify, or a full card is not the one a scanned compact card commits to.
    case compactCard(CompactContactCardError)
    /// Contacts-audience content or an attachment could not be sealed or opened.
    case cipher(ContactsCipherError)
    /// A contact was to be introduced to themselves.
    case introductionToThemselves
    /// A stored contact record holds a key that does not decode (a damaged database).
    case damagedRecord(FeedID, reason: String)

    public var description: String {
        switch self {
        case .notFound(let text): "no contact '\(text)'; see `kith contacts`"
        case .notAContact(let feed): "\(feed) is not a contact; see `kith contacts`"
        case .unverified(let name, _):
            "\(name)'s keys are not verified yet (their card names keys of a key rotation this device has not seen); sync their feed first"
        case .ownCard: "this is your own card; exchange cards with someone else"
        case .invalidName: "a contact name is 1...\(FeedLimits.maxDisplayName) characters"
        case .card(let error): error.description
        case .compactCard(let error): error.description
        case .cipher(let error): error.description
        case .introductionToThemselves: "cannot introduce a contact to themselves"
        case .damagedRecord(let feed, let reason): "the contact record of \(feed) is damaged: \(reason)"
        }
    }
}
