import ArgumentParser

/// `kith recovery setup|status|revoke|held|request|release|combine`: recovery through contacts (docs/CONTINUITY.md).
struct RecoveryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recovery",
        abstract: "Recover this identity through guardian contacts after losing every device.",
        discussion: """
            While you have a device: `kith recovery setup --threshold K CONTACT...` splits your recovery secret into one \
            share per guardian, handed over in your direct channels (sync to deliver them). After losing every device: \
            on a fresh home, `kith recovery request FEED_ID` prints a request and its safety code; each guardian runs \
            `kith recovery release FEED_ID --request REQ`, compares the code aloud and gives you the release text; \
            `kith recovery combine RELEASE... --into DIR [--backup FILE]` rebuilds the identity into a new home, restores \
            the backup and publishes a verified device_migration key rotation. Through a `kith serve` relay instead: \
            `kith recovery request FEED_ID --server URL --into DIR` offers one join code per guardian, and each guardian \
            runs `kith recovery release FEED_ID --join CODE --server URL`. `kith recovery revoke` tells every guardian to \
            delete your share.
            """,
        subcommands: [Setup.self, Status.self, Revoke.self, Held.self, Request.self, Release.self, Combine.self]
    )
}
