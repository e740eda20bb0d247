import Foundation
import KithRendezvous
import Synchronization

/// Pairings created and accepted over REST by concurrent workers, each pairing timed from the
/// create request to the accept answer.
enum RoomPairingLoad {
    /// The outcome: the room ids, the elapsed time and per-pairing latencies.
    struct Outcome {
        var rooms: [String]
        var seconds: Double
        var latencies: LatencySamples
    }

    /// Creates and accepts `count` pairings against `baseURL` with `workers` concurrent workers.
    static func run(count: Int, baseURL: String, workers: Int) async throws -> Outcome {
        let client = try RendezvousClient(baseURL: baseURL)
        let counters = LoadCounters()
        let latencies = LatencySamples()
        let start = ContinuousClock.now
        let rooms = try await withThrowingTaskGroup(of: [String].self) { group in
            for _ in 0..<workers {
                group.addTask {
                    var made: [String] = []
                    var samples: [Double] = []
                    while true {
                        let index = counters.next.add(1, ordering: .relaxed).oldValue
                        guard index < count else { break }
                        guard let code = JoinCode("bench\(index)x"), let client1 = DeviceID("a\(index)"), let client2 = DeviceID("b\(index)") else {
                            throw BenchFailure("bad identifiers")
                        }
                        let began = ContinuousClock.now
                        _ = try await client.createRoom(CreateRoomRequest(joinCode: code, client1: client1, expiresInSeconds: 600))
                        let room = try await client.accept(AcceptRoomRequest(joinCode: code, client2: client2))
                        samples.append((ContinuousClock.now - began).milliseconds)
                        made.append(room.text)
                    }
                    latencies.record(samples)
                    return made
                }
            }
            var all: [String] = []
            for try await made in group { all.append(contentsOf: made) }
            return all
        }
        return Outcome(rooms: rooms, seconds: (ContinuousClock.now - start).milliseconds / 1_000, latencies: latencies)
    }
}
