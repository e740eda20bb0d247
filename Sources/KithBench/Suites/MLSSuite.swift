import KithMLS

/// Benchmarks of the MLS core (RFC 9420, suite 1 unless named): application messages, commits with a path,
/// processing commits and joining from a Welcome, for groups of 16 and 64 members.
enum MLSSuite: BenchSuite {
    static let name = "mls"

    private static let configuration = GroupConfiguration(clock: { nil })

    private static func member(_ index: Int, suite: CipherSuite) throws -> (KeyPackage, KeyPackageSecrets) {
        try KeyPackage.generate(suite: suite, credential: .basic(identity: Array("member-\(index)".utf8)),
                                signatureKeys: suite.signature.generateKeyPair(), lifetime: Lifetime(notBefore: 0, notAfter: .max))
    }

    /// A group of `size` members built with one commit; returns the creator's and the last member's states.
    private static func group(size: Int, suite: CipherSuite) throws -> (creator: GroupState, member: GroupState) {
        let (creatorPackage, creatorSecrets) = try member(0, suite: suite)
        var creator = try GroupState(creating: [1, 2, 3], keyPackage: creatorPackage, secrets: creatorSecrets, configuration: configuration)
        var packages: [(KeyPackage, KeyPackageSecrets)] = []
        for index in 1..<size { packages.append(try member(index, suite: suite)) }
        let pending = try creator.commit(adding: packages.map(\.0))
        creator = pending.newState
        guard let welcome = pending.welcome, let last = packages.last else { throw MLSGroupError.unsupported("empty group") }
        let joined = try GroupState(welcome: welcome, keyPackage: last.0, secrets: last.1, configuration: configuration)
        return (creator, joined)
    }

    static func run(report: (BenchFigure) -> Void) throws {
        let suite = try CipherSuite(rawValue: 1)
        var (sender, receiver) = try group(size: 2, suite: suite)

        for size in [100, 1024] {
            let payload = [UInt8](repeating: 0x61, count: size)
            let rate = try BenchClock.rate {
                let message = try sender.encryptApplication(payload)
                _ = try receiver.handle(message)
            }
            report(BenchFigure(name: "mls.app_encrypt_decrypt_\(size)B_per_s", value: rate, unit: "ops/s"))
        }

        for size in [16, 64] {
            var (creator, member) = try group(size: size, suite: suite)
            var pending: PendingCommit?
            let rounds = 20
            let createSeconds = try BenchClock.seconds {
                for _ in 0..<rounds { pending = try creator.commit() }
            }
            report(BenchFigure(name: "mls.commit_create_path_\(size)_ms", value: createSeconds / Double(rounds) * 1000, unit: "ms"))
            guard let commit = pending else { continue }
            let processSeconds = try BenchClock.seconds {
                for _ in 0..<rounds {
                    var copy = member
                    _ = try copy.handle(commit.message)
                }
            }
            report(BenchFigure(name: "mls.commit_process_path_\(size)_ms", value: processSeconds / Double(rounds) * 1000, unit: "ms"))
            _ = try member.handle(commit.message)

            let (joinerPackage, joinerSecrets) = try Self.member(size, suite: suite)
            var adder = commit.newState
            let add = try adder.commit(adding: [joinerPackage])
            guard let welcome = add.welcome else { continue }
            let joinSeconds = try BenchClock.seconds {
                for _ in 0..<5 {
                    _ = try GroupState(welcome: welcome, keyPackage: joinerPackage, secrets: joinerSecrets, configuration: configuration)
                }
            }
            report(BenchFigure(name: "mls.join_welcome_\(size)_ms", value: joinSeconds / 5 * 1000, unit: "ms"))
            report(BenchFigure(name: "mls.welcome_with_tree_\(size)_bytes", value: Double(welcome.tlsEncoded.count), unit: "bytes"))
        }
    }
}
