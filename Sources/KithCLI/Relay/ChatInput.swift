import Foundation

/// The lines typed for `kith chat`, read once from standard input and handed out one at a time across relay
/// attempts: a reader cancelled while it waits (a dropped connection) loses nothing, and a line that could not be
/// sent goes back to the front.
actor ChatInput {
    private var queued: [String] = []
    private var ended = false
    private var waiter: (id: Int, continuation: CheckedContinuation<String?, Never>)?
    private var nextWaiterID = 0

    /// Input fed from standard input (in order, by one task that lives as long as the process).
    static func standardInput() -> ChatInput {
        let input = ChatInput()
        let lines = StandardInputLines.stream()
        Task {
            for await line in lines { await input.push(line) }
            await input.finish()
        }
        return input
    }

    /// Adds a typed line.
    func push(_ line: String) {
        if let waiter {
            self.waiter = nil
            waiter.continuation.resume(returning: line)
        } else {
            queued.append(line)
        }
    }

    /// Puts a line that was not sent back in front.
    func putBack(_ line: String) { queued.insert(line, at: 0) }

    /// The input ended (Ctrl-D).
    func finish() {
        ended = true
        if let waiter {
            self.waiter = nil
            waiter.continuation.resume(returning: nil)
        }
    }

    /// The next line; nil at the end of input or when the calling task is cancelled (check `Task.isCancelled`).
    func next() async -> String? {
        if !queued.isEmpty { return queued.removeFirst() }
        if ended || Task.isCancelled { return nil }
        nextWaiterID += 1
        let id = nextWaiterID
        return await withTaskCancellationHandler {
            await withCheckedContinuation { waiter = (id, $0) }
        } onCancel: {
            Task { await self.cancelWait(id) }
        }
    }

    private func cancelWait(_ id: Int) {
        guard let waiter, waiter.id == id else { return }
        self.waiter = nil
        waiter.continuation.resume(returning: nil)
    }
}
