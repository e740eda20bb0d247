import Foundation
import KithMLS
import KithMLSConformance
import Testing

/// Active-side round trips: groups of up to 64 members go through many epochs of random Add, Remove and Update
/// proposals (by reference and by value, public and private), with checks after every epoch (see ``GroupSimulation``).
@Suite struct RandomizedGroupTests {
    /// One randomized run: suite, initial size, maximum size, epochs and seed.
    struct Run: Sendable, CustomTestStringConvertible {
        var suite: UInt16
        var size: Int
        var maxSize: Int
        var epochs: Int
        var seed: UInt64
        var testDescription: String { "suite \(suite), \(size) members, \(epochs) epochs, seed \(seed)" }
    }

    static let runs: [Run] = [
        Run(suite: 1, size: 64, maxSize: 64, epochs: 10, seed: 0x4B17_0001),
        Run(suite: 3, size: 24, maxSize: 32, epochs: 20, seed: 0x4B17_0003),
        Run(suite: 2, size: 12, maxSize: 16, epochs: 20, seed: 0x4B17_0002),
    ]

    @Test(arguments: runs)
    func randomEpochsKeepMembersInAgreement(run: Run) throws {
        let suite = try CipherSuite(rawValue: run.suite)
        var simulation = try GroupSimulation(suite: suite, size: run.size, maxSize: run.maxSize, seed: run.seed)
        for _ in 0..<run.epochs { try simulation.runEpoch() }
        #expect(simulation.commits == run.epochs)
        #expect(simulation.applicationDeliveries > run.epochs * 2)
        #expect(!simulation.removed.isEmpty, "seed \(run.seed): the run removed nobody; pick another seed")
        print("randomized \(run.testDescription): \(simulation.members.count) members at the end, \(simulation.removed.count) removed, "
              + "\(simulation.applicationDeliveries) application deliveries, \(simulation.removedRejections) removed-member probes")
    }

    /// Extra seeds for soak runs: `KITH_MLS_SOAK=N swift test --filter RandomizedGroupTests` runs N more small groups per
    /// suite (none by default).
    @Test func soakWithExtraSeeds() throws {
        let count = Int(ProcessInfo.processInfo.environment["KITH_MLS_SOAK"] ?? "") ?? 0
        for index in 0..<count {
            for rawSuite: UInt16 in [1, 3, 2] {
                let seed = UInt64(0x50A4_0000 + index * 16 + Int(rawSuite))
                var simulation = try GroupSimulation(suite: try CipherSuite(rawValue: rawSuite), size: 6, maxSize: 10, seed: seed)
                for _ in 0..<12 { try simulation.runEpoch() }
            }
        }
    }
}
