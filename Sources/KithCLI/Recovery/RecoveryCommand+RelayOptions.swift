import ArgumentParser

extension RecoveryCommand {
    /// The rendezvous server and the wait of a release through a join-code relay, shared by `request` and `release`.
    struct RelayOptions: ParsableArguments {
        @Option(name: .customLong("server"), help: "Go through this rendezvous server's join-code relay (`kith serve`; for `release --join`, default $KITH_SERVER, else http://127.0.0.1:7460).")
        var server: String?

        @Option(help: "Seconds to wait for the other side through the relay (joining, and each answer).")
        var timeout: Int = 300
    }
}
