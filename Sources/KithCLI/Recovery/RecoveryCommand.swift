import ArgumentParser

/// `kith recovery setup|status|held|request|release|combine`: recovery through contacts (docs/CONTINUITY.md).
struct RecoveryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recovery",
        abstract: "Recover this identity through guardian contacts after losing every device.",
        discussion: """
            While you have a device: `kith recovery setup --threshold K CONTACT...` splits your recovery secret into one \
            share per guardian, handed over in your direct channels (sync to deliver them). After losing every device: \
            on a fresh home, `kith recovery request FEED_ID` prints a request and its safety code; each guardian runs \
            `kith recovery release FEED_ID --request REQ`, compares the code aloud and gives you the release text; \
            `kith recovery combine RELEASE... --into DIR` rebuilds the identity into a new home. Through a `kith serve` relay \
            instead: `kith recovery request FEED_ID --server URL --into DIR` offers one join code per guardian, and each \
            guardian runs `kith recovery release FEED_ID --join CODE --server URL`.
            """,
        subcommands: [Setup.self, Status.self, Held.self, Request.self, Release.self, Combine.self]
    )
}
