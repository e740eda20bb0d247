import Foundation
import KithMLS

/// Benchmarks of the MLS core (RFC 9420) for suites 1 and 3: a commit adding one member to groups of 16, 64, 128 and
/// 1,000 members (create and process), one commit adding 1,000 members at once, the Welcome of each, joining from it, and
/// application messages. Published mls-rs anchors (other hardware): create 13.5 ms and process 1.0 ms at 128 members,
/// 1,000 adds in one commit 156 ms. The 2,000 signature checks of the 1,000 KeyPackages are also timed alone: they are the
/// floor of the 1,000-add commit on one core. Likewise the leaf signature checks of the tree a joiner receives are timed
/// alone on one core (`join_welcome_N_signature_checks_cpu_ms`), next to the join that spreads them over the cores. The
/// size of a 100-member group's serialized member state, and the time to restore it, are measured too.
enum MLSSuite: BenchSuite {
    static let name = "mls"

    private static let configuration = GroupConfiguration(clock: { nil })
    /// Group sizes of the add-one-member figures.
    static let groupSizes = [16, 64, 128, 1000]
    /// Members added by the one big commit.
    static let bulkAdd = 1000

    private static func member(_ index: Int, suite: CipherSuite) throws -> (KeyPackage, KeyPackageSecrets) {
        try KeyPackage.generate(suite: suite, credential: .basic(identity: Array("member-\(index)".utf8)),
                                signatureKeys: suite.signature.generateKeyPair(), lifetime: Lifetime(notBefore: 0, notAfter: .max))
    }

    /// A group of `size` members built with one commit; returns the creator's state and the last joiner's state.
    private static func group(size: Int, suite: CipherSuite) throws -> (creator: GroupState, member: GroupState) {
        let (creatorPackage, creatorSecrets) = try member(0, suite: suite)
        var creator = try GroupState(creating: [1, 2, 3], keyPackage: creatorPackage, secrets: creatorSecrets, configuration: configuration)
        var packages: [(KeyPackage, KeyPackageSecrets)] = []
        for index in 1..<size { packages.append(try member(index, suite: suite)) }
        let pending = try creator.commit(adding: packages.map(\.0))
        guard let welcome = pending.welcome, let last = packages.last else { throw MLSGroupError.unsupported("empty group") }
        let joined = try GroupState(welcome: welcome, keyPackage: last.0, secrets: last.1, configuration: configuration)
        return (pending.newState, joined)
    }

    /// Mean milliseconds of `body` over `rounds` runs.
    private static func milliseconds(rounds: Int, _ body: () throws -> Void) throws -> Double {
        try BenchClock.seconds { for _ in 0..<rounds { try body() } } / Double(rounds) * 1000
    }

    /// Mean wall-clock and CPU milliseconds of `body` over `rounds` runs. The CPU time of this single-threaded work is its
    /// time on one core, which stays comparable while other processes share the machine.
    private static func wallAndCPU(rounds: Int, _ body: () throws -> Void) throws -> (wall: Double, cpu: Double) {
        let cpuStart = processCPUSeconds()
        let wall = try milliseconds(rounds: rounds, body)
        return (wall, (processCPUSeconds() - cpuStart) / Double(rounds) * 1000)
    }

    private static func processCPUSeconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    static func run(report: (BenchFigure) -> Void) async throws {
        for rawSuite: UInt16 in [1, 3] {
            let suite = try CipherSuite(rawValue: rawSuite)
            let prefix = "mls.s\(rawSuite)"

            var (sender, receiver) = try group(size: 2, suite: suite)
            let payload = [UInt8](repeating: 0x61, count: 100)
            let rate = try BenchClock.rate {
                let message = try sender.encryptApplication(payload)
                _ = try receiver.handle(message)
            }
            report(BenchFigure(name: "\(prefix).app_encrypt_decrypt_100B_per_s", value: rate, unit: "ops/s"))

            // A member's whole state at rest (stored sealed, restored for every message) in a 100-member group, once it
            // holds the default three past epochs for late application messages.
            var (creator100, member100) = try group(size: 100, suite: suite)
            for _ in 0..<GroupConfiguration.defaultPastEpochsForApplicationMessages {
                let pending = try creator100.commit()
                creator100 = pending.newState
                try member100.handle(pending.message)
            }
            let stateBytes = try member100.serializedState()
            report(BenchFigure(name: "\(prefix).state_bytes_100", value: Double(stateBytes.count), unit: "bytes"))
            let restore = try milliseconds(rounds: 20) { _ = try GroupState(serializedState: stateBytes, configuration: configuration) }
            report(BenchFigure(name: "\(prefix).state_restore_100_ms", value: restore, unit: "ms"))

            for size in groupSizes {
                let (creator, member) = try group(size: size, suite: suite)
                let (joinerPackage, joinerSecrets) = try Self.member(size, suite: suite)
                let rounds = size >= 1000 ? 5 : 20
                var pending: PendingCommit?
                let create = try wallAndCPU(rounds: rounds) {
                    var copy = creator
                    pending = try copy.commit(adding: [joinerPackage])
                }
                report(BenchFigure(name: "\(prefix).commit_add1_create_\(size)_ms", value: create.wall, unit: "ms"))
                report(BenchFigure(name: "\(prefix).commit_add1_create_\(size)_cpu_ms", value: create.cpu, unit: "ms"))
                guard let commit = pending, let welcome = commit.welcome else { continue }
                let process = try wallAndCPU(rounds: rounds) {
                    var copy = member
                    _ = try copy.handle(commit.message)
                }
                report(BenchFigure(name: "\(prefix).commit_add1_process_\(size)_ms", value: process.wall, unit: "ms"))
                report(BenchFigure(name: "\(prefix).commit_add1_process_\(size)_cpu_ms", value: process.cpu, unit: "ms"))
                report(BenchFigure(name: "\(prefix).commit_add1_message_\(size)_bytes", value: Double(commit.message.tlsEncoded.count), unit: "bytes"))
                report(BenchFigure(name: "\(prefix).welcome_add1_\(size)_bytes", value: Double(welcome.tlsEncoded.count), unit: "bytes"))
                // The same add without an UpdatePath (allowed for add-only commits): no encryption to the copath.
                var bare: PendingCommit?
                let bareCreate = try milliseconds(rounds: rounds) {
                    var copy = creator
                    bare = try copy.commit(adding: [joinerPackage], includePath: false)
                }
                report(BenchFigure(name: "\(prefix).commit_add1_nopath_create_\(size)_ms", value: bareCreate, unit: "ms"))
                if let bare {
                    let bareProcess = try milliseconds(rounds: rounds) {
                        var copy = member
                        _ = try copy.handle(bare.message)
                    }
                    report(BenchFigure(name: "\(prefix).commit_add1_nopath_process_\(size)_ms", value: bareProcess, unit: "ms"))
                }
                let join = try wallAndCPU(rounds: size >= 1000 ? 3 : 5) {
                    _ = try GroupState(welcome: welcome, keyPackage: joinerPackage, secrets: joinerSecrets, configuration: configuration)
                }
                report(BenchFigure(name: "\(prefix).join_welcome_\(size)_ms", value: join.wall, unit: "ms"))
                report(BenchFigure(name: "\(prefix).join_welcome_\(size)_cpu_ms", value: join.cpu, unit: "ms"))
                // The part of the join no implementation can skip: one signature check per leaf of the received tree
                // (RFC 9420 §7.3, §12.4.3.1), timed alone on one core; the join spreads them over the cores.
                let tree = commit.newState.tree
                let groupID = commit.newState.context.groupID
                var leavesValid = true
                let leafChecks = try wallAndCPU(rounds: 3) {
                    for leaf in tree.occupiedLeaves {
                        leavesValid = leavesValid && tree.leaf(leaf)?.verifySignature(suite: suite, groupID: groupID, leafIndex: leaf) == true
                    }
                }
                if leavesValid {
                    report(BenchFigure(name: "\(prefix).join_welcome_\(size)_signature_checks_cpu_ms", value: leafChecks.cpu, unit: "ms"))
                }
            }

            let (creatorPackage, creatorSecrets) = try member(0, suite: suite)
            let lonely = try GroupState(creating: [4, 5, 6], keyPackage: creatorPackage, secrets: creatorSecrets, configuration: configuration)
            let packages = try (1...bulkAdd).map { try member($0, suite: suite).0 }
            var bulk: PendingCommit?
            let bulkMilliseconds = try wallAndCPU(rounds: 3) {
                var copy = lonely
                bulk = try copy.commit(adding: packages)
            }
            report(BenchFigure(name: "\(prefix).commit_add\(bulkAdd)_create_ms", value: bulkMilliseconds.wall, unit: "ms"))
            report(BenchFigure(name: "\(prefix).commit_add\(bulkAdd)_create_cpu_ms", value: bulkMilliseconds.cpu, unit: "ms"))
            // The part no implementation can skip: each KeyPackage's signature and its leaf node's signature (RFC 9420 §10.1, §7.3).
            var allValid = true
            let signatureChecks = try wallAndCPU(rounds: 3) {
                for package in packages {
                    allValid = allValid && package.verifySignature(suite: suite)
                        && package.leafNode.verifySignature(suite: suite, groupID: [], leafIndex: LeafIndex(0))
                }
            }
            if allValid {
                report(BenchFigure(name: "\(prefix).commit_add\(bulkAdd)_signature_checks_cpu_ms", value: signatureChecks.cpu, unit: "ms"))
            }
            if let welcome = bulk?.welcome {
                report(BenchFigure(name: "\(prefix).welcome_add\(bulkAdd)_bytes", value: Double(welcome.tlsEncoded.count), unit: "bytes"))
            }
        }
    }
}
