import Dispatch
import FoundationEssentials
import Logging
import StreakCore
import StreakFraming
import StreakStorage
import StreakTransport
import StreakWire
import Synchronization

/// The Streakd service: authenticates each request, answers cached reads inline on the
/// connection's event loop, computes the rest on a few workers (one hop per read burst, each
/// user's requests in turn: `FairWorkQueue`), and acknowledges writes only after the store made
/// them durable.
public final class StreakService: RequestHandler, Sendable {
    let store: any StreakStore
    let configuration: ServiceConfiguration
    let logger: Logger
    let now: @Sendable () -> Date
    let tokens: TokenCache
    let users: UserRegistry
    let watchers = WatchRegistry()
    /// The open ExportData streams, at most a few per user.
    let exports = ExportSlots()
    /// Applies what other servers sharing the store change.
    let follower: ChangeFollower
    let builderCache: BuilderCache
    let counters: ServiceCounters
    /// The store's upkeep failing now (GetServerInfo); the log has each start and end.
    let upkeepHealth = UpkeepHealth()
    let clock: any MonotonicClock
    /// At most one log line about refused tokens per 10 s.
    private let authenticationFailures = Mutex(LogThrottle())
    /// At most one log line about stream token checks the store could not answer per 10 s.
    let recheckFailures = Mutex(LogThrottle())
    let workQueue = DispatchQueue(label: "streakd.service.work", qos: .userInitiated, attributes: .concurrent)
    /// The requests the fast path could not answer (their token known), each user's in turn, on
    /// two workers per core: one may wait for the store while the other computes.
    let slowPath = FairWorkQueue<SlowPathClient>(
        label: "streakd.service.slow-path",
        width: 2 * ProcessInfo.processInfo.activeProcessorCount
    )
    /// Stateless builds of large inputs (`PendingRequest.isLargeBuild`), each user's in turn, one
    /// per core and at most `maximumLargeBuilds` at once. A BuildHeatmap of a few million
    /// completions holds over 100 MB while it is computed and keeps a core busy throughout: more
    /// than a core's worth would add memory, not speed. On workers of their own they never hold the
    /// slow path's, so a user whose data must be loaded does not wait behind them.
    let largeBuilds = FairWorkQueue<SlowPathClient>(
        label: "streakd.service.large-builds",
        width: StreakService.largeBuildWorkers(cores: ProcessInfo.processInfo.activeProcessorCount)
    )
    /// The most large builds computed at once on any machine: about 600 MB at the largest inputs,
    /// whatever the core count (large builds are rare: clients that keep their own history).
    static let maximumLargeBuilds = 4

    /// Workers for large builds on a machine of `cores` cores: one a core, at least one, at most
    /// `maximumLargeBuilds`.
    static func largeBuildWorkers(cores: Int) -> Int { min(max(1, cores), maximumLargeBuilds) }
    /// Tokens the cache does not know (new, or past its 2 s): checked with the store on workers
    /// of their own, each connection's in turn, so that a check (one indexed read) never waits
    /// behind costly work on the slow path, and the many requests it lets through from memory
    /// (a client's next request after 2 s) do not either.
    let tokenChecks = FairWorkQueue<SlowPathClient>(
        label: "streakd.service.token-checks",
        width: max(2, ProcessInfo.processInfo.activeProcessorCount)
    )
    /// Encodes export pages, paced by how fast each client reads them.
    let exportQueue = DispatchQueue(label: "streakd.service.export", qos: .utility)
    /// Answers to acknowledged writes: encoded by the store's batch hook on its writer thread once
    /// the whole group commit was applied, without waking another thread.
    let answers: CoalescingQueue
    private let shuttingDown = Atomic<Bool>(false)
    private let closed = Atomic<Bool>(false)
    /// (In a struct: a bare function type in a `Mutex` is re-wrapped in a thunk at every access,
    /// so that each GetServerInfo would add to a chain of thunks.)
    private struct ConnectionCount {
        let count: @Sendable () -> (open: Int, served: UInt64)
    }
    private let connectionCountSource = Mutex<ConnectionCount?>(nil)
    /// How the service's own background jobs reach it (never weakly: `ServiceRelay`).
    let relay = ServiceRelay()

    /// Creates the service over a store.
    /// - Parameters:
    ///   - store: where users, habits, completions and settings live.
    ///   - configuration: version, storage name and cache bounds.
    ///   - logger: receives no tokens and no habit names.
    ///   - now: the wall clock, from which "today" is computed in each user's time zone.
    ///   - clock: the monotonic clock that cached tokens expire by and uptime is measured with.
    public init(
        store: any StreakStore,
        configuration: ServiceConfiguration,
        logger: Logger,
        now: @escaping @Sendable () -> Date = { Date() },
        clock: any MonotonicClock = SystemMonotonicClock()
    ) {
        self.store = store
        self.configuration = configuration
        self.logger = logger
        self.now = now
        self.clock = clock
        tokens = TokenCache(ttl: configuration.tokenCacheTTL, clock: clock)
        counters = ServiceCounters(clock: clock)
        users = UserRegistry(
            store: store,
            cacheLimits: configuration.userCacheLimits,
            budget: configuration.userMemoryBudget
        )
        follower = ChangeFollower(
            store: store,
            users: users,
            logger: logger,
            maximumLag: configuration.followerMaximumLag
        )
        builderCache = BuilderCache(
            limit: configuration.responseCacheLimit * 8,
            byteBudget: configuration.builderCacheBytes,
            entryLimit: configuration.responseCacheEntryBytes
        )
        let answers = CoalescingQueue()
        self.answers = answers
        store.onBatchAcknowledged { answers.drain() }
        relay.attach(self)
        scheduleStreamRecheck()
        users.setHooks(
            isWatched: { [watchers] in watchers.isWatched($0) },
            changedWhileLoading: { [follower] id, change in follower.enqueue(id, change) }
        )
        follower.onChangedDays(
            isWatched: { [watchers] in watchers.isWatched($0) },
            now: now,
            action: { [relay] user, days in relay.current?.notifyWatchers(user, days: days) },
            settingsChanged: { [relay] user, before, after in
                relay.current?.notifySettingsChanged(user, from: before, to: after)
            }
        )
        store.onUpkeepReport { [logger, upkeepHealth, now] report in
            upkeepHealth.take(report, at: now())
            report.log(to: logger)
        }
        store.onExternalChange { [follower] change in follower.receive(change) }
    }

    /// Reports the open connections and those served since the start in GetServerInfo (set once
    /// the transport exists).
    public var connectionCounter: (@Sendable () -> (open: Int, served: UInt64))? {
        get { connectionCountSource.withLock { $0?.count } }
        set { connectionCountSource.withLock { $0 = newValue.map(ConnectionCount.init) } }
    }

    /// Whether `beginShutdown()` was called: Ping answers `serving = false`.
    public var isShuttingDown: Bool { shuttingDown.load(ordering: .relaxed) }

    /// Starts a graceful shutdown: Ping reports not serving and every watch stream ends with UNAVAILABLE.
    public func beginShutdown() {
        shuttingDown.store(true, ordering: .relaxed)
        watchers.endAll(status: ServiceError.shuttingDown.status)
    }

    /// Whether `close()` was called.
    var isClosed: Bool { closed.load(ordering: .relaxed) }

    /// Releases what the service holds and stops its timers; call after the transport finished.
    /// Required: until then the service's own jobs hold it (`ServiceRelay`).
    public func close() {
        closed.store(true, ordering: .relaxed)
        tokens.removeAll()
        relay.release()
    }

    // MARK: RequestHandler

    /// Answers a read burst: inline what it can (Ping, cached reads, writes of a loaded user; a
    /// cached heatmap a write made stale has its few changed columns built here, bounded by
    /// `HeatmapRecipe.maximumBytes(packed:)`); the rest moves off the loop in one hop: a token the
    /// cache does not know to the token checks, what needs the store or real computation to the
    /// slow path, where users take turns, and large stateless builds to workers of their own,
    /// where users take turns too.
    public func handle(_ requests: [IncomingRequest], responder: Responder) {
        var deferred: [PendingRequest] = []
        // By index: `for request in requests` would copy each request out (three retains).
        for index in requests.indices {
            if let item = answerOrDefer(requests[index], responder: responder) { deferred.append(item) }
        }
        guard !deferred.isEmpty else { return }
        var checks: [FairWorkQueue<SlowPathClient>.Item] = []
        // One line per user: a user's many connections take one turn together.
        var lines: [SlowPathClient: [FairWorkQueue<SlowPathClient>.Item]] = [:]
        var builds: [SlowPathClient: [FairWorkQueue<SlowPathClient>.Item]] = [:]
        for item in deferred {
            guard let id = item.userID else {
                checks.append { self.checkToken(item, responder: responder) }
                continue
            }
            let work: FairWorkQueue<SlowPathClient>.Item = { self.process(item, userID: id, responder: responder) }
            if item.isLargeBuild {
                builds[.user(id), default: []].append(work)
            } else {
                lines[.user(id), default: []].append(work)
            }
        }
        if !checks.isEmpty { tokenChecks.submit(checks, from: .connection(ObjectIdentifier(responder))) }
        for (client, work) in lines { slowPath.submit(work, from: client) }
        for (client, work) in builds { largeBuilds.submit(work, from: client) }
    }

    /// On the token checks: asks the store whose `item`'s token is, then answers as the fast path
    /// would have with a known token, here when it can (a cached read, a write of a user in
    /// memory), else on the slow path in the user's line.
    private func checkToken(_ item: PendingRequest, responder: Responder) {
        let request = item.request
        guard responder.isActive(request.id, generation: request.generation) else { return }
        do {
            guard let id = try authenticate(item) else {
                fail(request, ServiceError.unauthenticated, responder, streaming: item.method.isServerStreaming)
                return
            }
            let known = answerOrDefer(request, item.method, token: item.token, userID: id, responder: responder)
            guard let pending = known else { return }
            let workers = pending.isLargeBuild ? largeBuilds : slowPath
            workers.submit([{ self.process(pending, userID: id, responder: responder) }], from: .user(id))
        } catch {
            fail(request, error, responder, streaming: item.method.isServerStreaming)
        }
    }

    /// Watch and ExportData: the transport ends a request of theirs it refuses, cancels or expires
    /// with END_STREAM. Asked for every request: string comparisons, not the method table's hashing.
    public func isServerStreaming(_ method: String) -> Bool {
        WireMethod.isServerStreaming(path: method)
    }

    /// Answers `request` inline when it can; otherwise returns what the work queue needs to answer it.
    private func answerOrDefer(_ request: IncomingRequest, responder: Responder) -> PendingRequest? {
        counters.countRequest()
        let memo = ConnectionMemo.of(responder)
        guard let method = memo.method(request.method) else {
            fail(request, ServiceError.unimplemented(request.method), responder)
            return nil
        }
        guard method.requiresAuthentication else {
            run(request, responder) { try self.ping(request) }
            return nil
        }
        let authorization = BearerToken.authorization(request.metadata)
        if let authorization, let known = memo.authentication(for: authorization, in: tokens) {
            let user = known.acceptance.user
            return answerOrDefer(request, method, token: known.token, userID: user, responder: responder)
        }
        // A token that cannot be one is refused here: not queued, not remembered, never hashed.
        guard let authorization, let token = BearerToken.from(authorization), TokenHasher.isWellFormed(token) else {
            fail(request, ServiceError.unauthenticated, responder, streaming: method.isServerStreaming)
            return nil
        }
        switch tokens.find(token) {
        case .rejected:
            fail(request, ServiceError.unauthenticated, responder, streaming: method.isServerStreaming)
            return nil
        case .accepted(let acceptance):
            memo.authentication = .init(authorization: authorization, token: token, acceptance: acceptance)
            return answerOrDefer(request, method, token: token, userID: acceptance.user, responder: responder)
        case nil:
            return PendingRequest(request: request, responder: responder, method: method, token: token)
        }
    }

    /// With the request's user known (from the token cache, or the store): answers inline when the
    /// user is in memory and the answer needs nothing more; else returns what the slow path needs
    /// (a user not in memory, evicted or dropped, is loaded there).
    private func answerOrDefer(
        _ request: IncomingRequest,
        _ method: WireMethod,
        token: Substring?,
        userID id: UserID,
        responder: Responder
    ) -> PendingRequest? {
        let user = users.loadedState(for: id)
        if let user {
            user.touch()
            if answerInline(method, request, user: user, responder: responder) { return nil }
        }
        return PendingRequest(
            request: request,
            responder: responder,
            method: method,
            token: token,
            user: user,
            userID: id
        )
    }

    // MARK: Paths

    /// The fast path: true when the request was answered (or handed to the store) here.
    private func answerInline(
        _ method: WireMethod,
        _ request: IncomingRequest,
        user: UserState,
        responder: Responder
    ) -> Bool {
        if method.isCacheableRead {
            let (key, bytes) = user.cachedResponse(method, message: request.message, now: now())
            guard let bytes else {
                return method == .getStreak && answerSharedStreak(request, key: key, user: user, responder: responder)
            }
            responder.respond(to: request, status: .ok, message: bytes)
            return true
        }
        if method.isStatelessBuilder {
            guard let bytes = builderCache.lookup(method, request.message) else { return false }
            responder.respond(to: request, status: .ok, message: bytes)
            return true
        }
        if method.isWrite {
            // Evicted since it was looked up: the work queue loads it again.
            guard user.pin() else { return false }
            defer { user.unpin() }
            dispatch(method, request, user: user, responder: responder)
            return true
        }
        if method == .watch {
            dispatch(method, request, user: user, responder: responder)
            return true
        }
        return false
    }

    /// The slow path, for user `id` (whose token was checked): load the user, compute.
    private func process(_ item: PendingRequest, userID id: UserID, responder: Responder) {
        let request = item.request
        guard responder.isActive(request.id, generation: request.generation) else { return }
        do {
            // These need no user data: not worth loading one.
            if item.method == .getServerInfo {
                responder.respond(to: request, status: .ok, message: try serverInfo(request).serializedBytes())
                return
            }
            if item.method.isStatelessBuilder {
                try answerBuilder(item.method, request, responder: responder)
                return
            }
            // A write pins its user while it is validated and handed to the store: an evicted
            // state would not see its acknowledgement.
            let pin = item.method.isWrite
            var known = item.user
            if let user = known, pin, !user.pin() { known = nil }
            let user = try known ?? users.state(for: id, pin: pin)
            defer { if pin { user.unpin() } }
            dispatch(item.method, request, user: user, responder: responder)
        } catch {
            fail(request, error, responder, streaming: item.method.isServerStreaming)
        }
    }

    /// The user of `item`'s token, checked with the store. GetServerInfo reports on the server,
    /// not on a user, and an operator asks for it most during an outage: when the store cannot
    /// check a token, it accepts one this server accepted before.
    private func authenticate(_ item: PendingRequest) throws -> UserID? {
        do {
            return try userID(for: item.token)
        } catch {
            guard item.method == .getServerInfo, let token = item.token, let known = tokens.lastAcceptedUser(token)
            else { throw error }
            return known
        }
    }

    /// The user who owns `token`: from the cache, else from the store (and remembered).
    func userID(for token: Substring?) throws -> UserID? {
        guard let token else { return nil }
        if let entry = tokens.lookup(token) {
            if case .user(let id) = entry { return id }
            return nil
        }
        guard let id = try store.authenticate(token: String(token)) else {
            tokens.remember(token, .rejected)
            return nil
        }
        tokens.remember(token, .user(id))
        return id
    }

    /// Runs the method for an authenticated user; writes answer later from the store's callback.
    private func dispatch(_ method: WireMethod, _ request: IncomingRequest, user: UserState, responder: Responder) {
        do {
            if method.isCacheableRead {
                try answerRead(method, request, user: user, responder: responder)
            } else if method.isStatelessBuilder {
                try answerBuilder(method, request, responder: responder)
            } else if method.isWrite {
                try submitWrite(method, request, user: user, responder: responder)
            } else if method == .watch {
                try startWatch(request, user: user, responder: responder)
            } else if method == .exportData {
                try startExport(request, user: user, responder: responder)
            } else if method == .getServerInfo {
                responder.respond(to: request, status: .ok, message: try serverInfo(request).serializedBytes())
            } else {
                throw ServiceError.unimplemented(request.method)
            }
        } catch {
            fail(request, error, responder, streaming: method.isServerStreaming)
        }
    }

    /// Runs `body` and answers with its bytes or its error.
    func run(_ request: IncomingRequest, _ responder: Responder, _ body: () throws -> [UInt8]) {
        do {
            responder.respond(to: request, status: .ok, message: try body())
        } catch {
            fail(request, error, responder)
        }
    }

    /// Answers with the status of `error` and counts it: a RESPONSE, or an END_STREAM for a
    /// server-streaming method. Storage failures are logged here and reach the client only as a
    /// generic status.
    func fail(_ request: IncomingRequest, _ error: any Error, _ responder: Responder, streaming: Bool = false) {
        fail(id: request.id, generation: request.generation, error, responder, streaming: streaming)
    }

    /// The storage codes whose errors are always logged, with a reference, at error level: the
    /// store could not do its work (an engine's refusal of another kind is a notice).
    private static let storeFailures: Set<StorageError.Code> = [.io, .corrupt, .diskFull, .internalFailure]

    /// Answers request `id` (of `generation`) with the status of `error`, as `fail(_:_:_:streaming:)`.
    func fail(
        id: UInt32,
        generation: UInt64?,
        _ error: any Error,
        _ responder: Responder,
        streaming: Bool = false
    ) {
        counters.countError()
        var status = ServiceError.status(for: error)
        if let storage = error as? StorageError, storage.engine != nil || Self.storeFailures.contains(storage.code) {
            // The client gets a reference that finds the log line. The line has the code, the
            // engine's code and the schema objects it named, not the engine's words, which may
            // quote user data (PostgreSQL's DETAIL lines); SQLite's, which cannot, at debug level.
            let reference = ServiceError.reference(UInt32.random(in: 0...UInt32.max))
            var metadata = storage.logMetadata
            metadata["ref"] = "\(reference)"
            if Self.storeFailures.contains(storage.code) {
                logger.error("storage error", metadata: metadata)
            } else {
                logger.notice("storage refused a change", metadata: metadata)
            }
            if let text = storage.loggableEngineText {
                logger.debug("the storage engine's words", metadata: ["ref": "\(reference)", "text": "\(text)"])
            }
            status = Status(status.code, "\(status.message) (ref \(reference))")
        } else if status.code == .internal {
            logger.error("internal error", metadata: ["error": "\(type(of: error))"])
        } else if status.code == .unauthenticated {
            logAuthenticationFailure(status, peer: responder.peer)
        }
        if streaming {
            responder.endStream(id, generation: generation, status: status)
        } else {
            responder.respond(to: id, generation: generation, status: status, message: [])
        }
    }

    /// Logs a request refused for its token at notice level, with the client's address: the
    /// first at once, later ones at most once per 10 s with how many were refused meanwhile, so
    /// that an operator sees someone guessing tokens without a line per guess.
    private func logAuthenticationFailure(_ status: Status, peer: String) {
        guard let refused = authenticationFailures.withLock({ $0.count(now: clock.nanoseconds) }) else { return }
        logger.notice(
            "refused a request for its token",
            metadata: [
                "peer": "\(peer)", "reason": "\(status.message)", "refused": "\(refused) since the last such line",
            ]
        )
    }
}
