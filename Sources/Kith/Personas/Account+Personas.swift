import Foundation
import KithGroups
import KithIdentity
import KithStore

/// The blocking work of ``Account/Personas`` (docs/GROUPS.md, "Personas").
///
/// A persona's seed is drawn fresh, never derived from the device seed: a derived seed could be derived again after
/// the persona was destroyed, so exploding would not destroy it. It is sealed alone in `personas/<id>/persona.sealed`
/// under a key from the main device seed and that file's own random salt (``PersonaSealing``).
extension Account {
    /// The main home, or why personas are not available on this account.
    func personasMainHome() throws(KithError) -> AccountHome {
        guard let home else { throw .persona(.needsHome) }
        guard !home.isPersona else { throw .persona(.isPersona) }
        return home
    }

    func personaIndex() throws(KithError) -> PersonaIndex {
        let home = try personasMainHome()
        do throws(PersonaError) { return try PersonaIndex.read(home, mainSeed: deviceSeed) } catch { throw .persona(error) }
    }

    func personaEntry(_ id: String, in index: PersonaIndex) throws(KithError) -> PersonaIndex.Entry {
        guard PersonaHome.isLocalID(id), let entry = index.entries.first(where: { $0.id == id }) else {
            throw .persona(.unknown(id: id))
        }
        return entry
    }

    func createPersonaBlocking() throws(KithError) -> (persona: Persona, account: Account) {
        let home = try personasMainHome()
        return try PersonaIndexLock.withLock(home) { () throws(KithError) in try createPersonaLocked(home) }
    }

    private func createPersonaLocked(_ home: AccountHome) throws(KithError) -> (persona: Persona, account: Account) {
        var index = try personaIndex()
        guard index.entries.count < Personas.maxPersonas else { throw .persona(.tooMany(limit: Personas.maxPersonas)) }
        let generated: (identity: Identity, seed: Seed)
        do throws(IdentityError) { generated = try Identity.generate() } catch { throw .identity(error) }
        let id = PersonaHome.newLocalID()
        let personaHome = PersonaHome.home(home, id: id)
        do {
            try FileManager.default.createDirectory(at: personaHome.directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .fileSystem(path: personaHome.directory.path, reason: error.localizedDescription)
        }
        do {
            let sealedSeed: [UInt8]
            do throws(PersonaError) {
                let raw = generated.seed.withUnsafeBytes { Array($0) }
                sealedSeed = try PersonaSealing.seal(raw, purpose: .seed, localID: id, mainSeed: deviceSeed)
            } catch {
                throw KithError.persona(error)
            }
            let seedURL = PersonaHome.seedURL(personaHome)
            do { try Data(sealedSeed).write(to: seedURL, options: .atomic) } catch {
                throw KithError.fileSystem(path: seedURL.path, reason: error.localizedDescription)
            }
            let store: FeedStore
            do throws(StoreError) {
                store = try FeedStore(path: personaHome.databaseURL.path, storageKey: generated.identity.storageKey)
            } catch {
                throw KithError.store(error)
            }
            let persona = try Account(identity: generated.identity, deviceSeed: generated.seed, store: store, home: personaHome, clock: clock)
            let entry = PersonaIndex.Entry(id: id, feedID: generated.identity.feedID, createdAt: clock())
            index.entries.append(entry)
            try index.write(home, mainSeed: deviceSeed)
            return (entry.persona(now: clock()), persona)
        } catch let error as KithError {
            try? PersonaHome.erase(personaHome.directory)
            throw error
        } catch {
            try? PersonaHome.erase(personaHome.directory)
            throw .fileSystem(path: personaHome.directory.path, reason: "\(error)")
        }
    }

    func openPersonaBlocking(_ id: String) throws(KithError) -> Account {
        let home = try personasMainHome()
        _ = try personaEntry(id, in: try personaIndex())
        let personaHome = PersonaHome.home(home, id: id)
        let seedURL = PersonaHome.seedURL(personaHome)
        let seed: Seed
        do throws(PersonaError) {
            guard let sealed = try PersonaSealing.read(seedURL) else { throw .damaged(path: seedURL.path, reason: "missing") }
            let raw = try PersonaSealing.open(sealed, purpose: .seed, localID: id, mainSeed: deviceSeed, path: seedURL.path)
            guard let opened = try? Seed(bytes: raw) else { throw .damaged(path: seedURL.path, reason: "not a seed") }
            seed = opened
        } catch {
            throw .persona(error)
        }
        return try Self.openRotationAware(home: personaHome, seed: seed, clock: clock)
    }

    func recordPersonaConversationBlocking(_ id: String, group: GroupSummary) throws(KithError) -> Persona {
        let home = try personasMainHome()
        return try PersonaIndexLock.withLock(home) { () throws(KithError) in try recordPersonaConversationLocked(home, id, group: group) }
    }

    private func recordPersonaConversationLocked(_ home: AccountHome, _ id: String, group: GroupSummary) throws(KithError) -> Persona {
        var index = try personaIndex()
        var entry = try personaEntry(id, in: index)
        if let current = entry.groupID, current != group.id { throw .persona(.alreadyHasConversation(id: id)) }
        entry.groupID = group.id
        entry.conversation = group.name
        entry.expiresAt = group.explodeAt
        index.entries = index.entries.map { $0.id == id ? entry : $0 }
        try index.write(home, mainSeed: deviceSeed)
        return entry.persona(now: clock())
    }

    /// Destroys one persona: its directory (seed file, database, write-ahead log) is overwritten and removed, then
    /// its index entry goes. A crash in between leaves an orphan directory, which ``sweepPersonasBlocking()`` erases.
    func deletePersonaBlocking(_ id: String) throws(KithError) {
        let home = try personasMainHome()
        try PersonaIndexLock.withLock(home) { () throws(KithError) in try deletePersonaLocked(home, id) }
    }

    private func deletePersonaLocked(_ home: AccountHome, _ id: String) throws(KithError) {
        var index = try personaIndex()
        _ = try personaEntry(id, in: index)
        try PersonaHome.erase(PersonaHome.home(home, id: id).directory)
        index.entries.removeAll { $0.id == id }
        try index.write(home, mainSeed: deviceSeed)
    }

    /// Run when the main account opens: deletes every persona whose conversation's explosion time has passed or whose
    /// conversation ended (exploded by its committer, left, removed: read from the persona's own store, one SQLite open
    /// per persona), and every directory under `personas/` the index does not list (a creation or deletion cut by a
    /// crash).
    func sweepPersonasBlocking() throws(KithError) {
        guard let home, !home.isPersona else { return }
        let manager = FileManager.default
        let hasIndex = manager.fileExists(atPath: home.personaIndexURL.path)
        guard hasIndex || manager.fileExists(atPath: home.personasDirectory.path) else { return }
        try PersonaIndexLock.withLock(home) { () throws(KithError) in try sweepPersonasLocked(home) }
    }

    private func sweepPersonasLocked(_ home: AccountHome) throws(KithError) {
        let manager = FileManager.default
        var index = try personaIndex()
        let now = clock()
        var ended = Set(index.entries.filter { ($0.expiresAt ?? .max) <= now }.map(\.id))
        for entry in index.entries where !ended.contains(entry.id) && entry.groupID != nil {
            if !personaConversationIsActive(entry) { ended.insert(entry.id) }
        }
        for id in ended { try PersonaHome.erase(PersonaHome.home(home, id: id).directory) }
        if !ended.isEmpty {
            index.entries.removeAll { ended.contains($0.id) }
            try index.write(home, mainSeed: deviceSeed)
        }
        let listed = Set(index.entries.map(\.id))
        let present = (try? manager.contentsOfDirectory(atPath: home.personasDirectory.path)) ?? []
        for name in present where !listed.contains(name) {
            try PersonaHome.erase(home.personasDirectory.appendingPathComponent(name, isDirectory: true))
        }
    }

    /// False when the persona's conversation ended (its store says so); true when it is active or cannot be read
    /// (a damaged persona is kept for the user to see, never deleted on a guess).
    private func personaConversationIsActive(_ entry: PersonaIndex.Entry) -> Bool {
        guard let group = entry.groupID, let persona = try? openPersonaBlocking(entry.id) else { return true }
        guard let summary = try? persona.groupBlocking(group) else { return true }
        return summary.status == .active
    }
}

extension Account.Personas {
    /// Creates a persona: a fresh identity (random seed, feed, keys, MLS credential, invite key), sealed on this device,
    /// with no contacts and no profile. Returns it with its opened ``Account``; record the conversation it joins with
    /// ``record(_:conversation:in:)``, or use ``createGroup(name:explodeAt:)`` to do both.
    ///
    /// - Throws: ``KithError/persona(_:)`` with `needsHome` (in-memory account), `isPersona`, `tooMany`.
    public func create() async throws(KithError) -> (persona: Persona, account: Account) {
        try await BlockingWork.run { () throws(KithError) in try account.createPersonaBlocking() }
    }

    /// Creates a group under a fresh persona: the persona is the group's creator and committer, and invites made by
    /// the returned account name the persona and are signed with its invite key. The persona expires with the group.
    public func createGroup(name: String, explodeAt: Int64? = nil) async throws(KithError) -> (persona: Persona, account: Account, group: GroupSummary) {
        let (created, persona) = try await create()
        do {
            let group = try await persona.groups.create(name: name, explodeAt: explodeAt)
            let recorded = try await record(created.id, conversation: group.id, in: persona)
            return (recorded, persona, group)
        } catch {
            try? await delete(created.id)
            throw error
        }
    }

    /// Records the conversation a persona holds (after it created or joined it): its id, name and explosion time, from
    /// `personaAccount` (the persona's opened account).
    ///
    /// - Throws: ``KithError/persona(_:)`` with `unknown`, or `alreadyHasConversation` for another group.
    @discardableResult
    public func record(_ id: String, conversation group: GroupID, in personaAccount: Account) async throws(KithError) -> Persona {
        let summary = try await personaAccount.groups.summary(group)
        return try await BlockingWork.run { () throws(KithError) in try account.recordPersonaConversationBlocking(id, group: summary) }
    }

    /// Every persona on this device, oldest first.
    public func all() async throws(KithError) -> [Persona] {
        try await BlockingWork.run { () throws(KithError) in
            let now = account.clock()
            return try account.personaIndex().entries.map { $0.persona(now: now) }
        }
    }

    /// The persona holding a conversation, if any.
    public func holding(_ group: GroupID) async throws(KithError) -> Persona? {
        try await all().first { $0.groupID == group }
    }

    /// Opens a persona's account: groups, invites, sync and push work on it exactly as on a main account, and it knows
    /// nothing of the main identity.
    ///
    /// - Throws: ``KithError/persona(_:)`` with `unknown`, or `damaged` when its sealed seed does not open.
    public func open(_ id: String) async throws(KithError) -> Account {
        try await BlockingWork.run { () throws(KithError) in try account.openPersonaBlocking(id) }
    }

    /// Deletes a persona and everything of it: keys, feed, group state, peers, every row and blob (its whole
    /// directory, overwritten then removed), and its index entry.
    public func delete(_ id: String) async throws(KithError) {
        try await BlockingWork.run { () throws(KithError) in try account.deletePersonaBlocking(id) }
    }

    /// Leaves the persona's conversation and deletes the persona. The departure proposal is written to the persona's
    /// feed but goes nowhere once the persona is gone: to the others it falls silent until the committer removes it.
    public func leave(_ id: String) async throws(KithError) {
        let (persona, opened) = try await conversation(of: id)
        if let group = persona.groupID, (try? await opened.groups.summary(group))?.status == .active {
            _ = try? await opened.groups.leave(group)
        }
        try await delete(id)
    }

    /// Explodes the persona's conversation (committer: every member is removed and the explosion time is set to now in
    /// the shared metadata) and deletes the persona. Members who do not sync with the persona before learn it from the
    /// explosion time, if the conversation had one.
    public func explode(_ id: String) async throws(KithError) {
        let (persona, opened) = try await conversation(of: id)
        if let group = persona.groupID, (try? await opened.groups.summary(group))?.status == .active {
            _ = try await opened.groups.explode(group)
        }
        try await delete(id)
    }

    private func conversation(of id: String) async throws(KithError) -> (Persona, Account) {
        guard let persona = try await all().first(where: { $0.id == id }) else { throw .persona(.unknown(id: id)) }
        return (persona, try await open(id))
    }
}
