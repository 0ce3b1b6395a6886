import Dispatch
import FoundationEssentials
import Logging
import StreakPOSIX
import StreakServer
import StreakStorage
import StreakTLS
import StreakTransport
import StreakWire

#if canImport(Glibc)
import Glibc
#endif

/// Opens the store, starts the service and the transport, and runs until SIGTERM or SIGINT.
///
/// Lives outside `main.swift` on purpose: closures there would be main-actor isolated,
/// and the signal handlers, which run on Dispatch queues, must not be.
final class ServerRunner: Sendable {
    private let configuration: TransportConfiguration
    private let dataDirectory: URL
    private let storage: DataDirectoryOptions
    private let userMemoryBudget: Int?
    private let logger: Logger

    init(
        configuration: TransportConfiguration,
        dataDirectory: URL,
        storage: DataDirectoryOptions,
        userMemoryBudget: Int?,
        logger: Logger
    ) {
        self.configuration = configuration
        self.dataDirectory = dataDirectory
        self.storage = storage
        self.userMemoryBudget = userMemoryBudget
        self.logger = logger
    }

    /// Serves until a signal asks to stop; never returns (exits 0 after a graceful shutdown).
    func run() throws -> Never {
        prepareProcess()
        let store = try openStore()
        let shared = store is PostgresStore
        try ensureLocalUser(in: store, shared: shared)
        let service = StreakService(
            store: store,
            configuration: ServiceConfiguration(
                version: StreakdRelease.version,
                storageName: shared ? "postgres" : "sqlite",
                userMemoryBudget: userMemoryBudget
            ),
            logger: Logger(label: "streakd.service")
        )
        if let budget = userMemoryBudget, budget < 1 << 20 {
            logger.notice(
                "the user memory budget is smaller than most users: every request loads its user from the store",
                metadata: ["bytes": "\(budget)"]
            )
        }
        let transport = ServerTransport(
            configuration: configuration,
            handler: service,
            logger: Logger(label: "streakd.transport")
        )
        service.connectionCounter = { transport.connectionCounts }
        // Before the listening line: a SIGTERM right after it must already shut down gracefully.
        installSignalHandlers(service: service, transport: transport, store: store, shared: shared)
        if let credentials = configuration.tls {
            Self.logCertificate(credentials.context, credentials, logger: logger, event: "serving TLS")
        }
        try listen(transport, store: store)
        dispatchMain()
    }

    /// What the process needs before anything else: no SIGPIPE, bounded malloc arenas, room for
    /// many connections, and files only the owner may read.
    private func prepareProcess() {
        signal(SIGPIPE, SIG_IGN)
        ResourceLimits.limitMallocArenas()
        let limit = ResourceLimits.raiseOpenFileLimit()
        logger.debug("open file limit", metadata: ["limit": "\(limit)"])
        // Files the server creates (the database, its WAL and shared memory) are the owner's alone.
        umask(0o077)
    }

    /// Locks the data directory (one server a directory), makes it private, and opens the store,
    /// upgrading its schema; logs what was changed.
    private func openStore() throws -> SQLStore {
        try DataDirectoryLock.acquire(directory: dataDirectory)
        let fixed = DataDirectory.secure(dataDirectory.path)
        if !fixed.isEmpty {
            logger.notice(
                "made the data directory private: 0700 for the directory, 0600 for its files",
                metadata: ["changed": "\(fixed.map { PathText.lastComponent(of: $0) }.joined(separator: ", "))"]
            )
        }
        let (store, migration) = try storage.openStore(directory: dataDirectory, policy: .upgrade)
        // Said once, when a migration ran: an upgrade changes the store for good (older servers
        // refuse it from then on), so the log must show when and what.
        if migration.migrated {
            logger.log(
                level: migration.before == 0 ? .info : .notice,
                migration.before == 0 ? "created the store's schema" : "upgraded the store's schema",
                metadata: [
                    "from": "\(migration.before)",
                    "to": "\(migration.after)",
                    "migrations": "\(migration.applied.joined(separator: ", "))",
                ]
            )
        }
        return store
    }

    /// Gives the local user (created with this machine's time zone) a token file in the data
    /// directory, or says why there is none.
    private func ensureLocalUser(in store: SQLStore, shared: Bool) throws {
        let machineZone = MachineTimeZone.identifier()
        if let tz = MachineTimeZone.unnamedTZ() {
            logger.notice(
                "TZ names no IANA time zone: a local user this server creates gets the zone named by /etc/localtime or /etc/timezone (else UTC); set a user's own with `streak settings --time-zone ZONE`",
                metadata: [
                    "TZ": "\(tz)",
                    "offset_now": "\(MachineTimeZone.offsetText(seconds: MachineTimeZone.currentOffset()))",
                    "zone": "\(machineZone)",
                ]
            )
        }
        // A shared database keeps its local user's token: another server's data directory may hold it.
        let tokenFile = dataDirectory.appendingPathComponent(LocalUser.tokenFileName).path
        if try LocalUser.ensure(
            store: store,
            dataDirectory: dataDirectory.path,
            reissue: !shared,
            timeZone: machineZone
        ) != nil {
            logger.notice(
                "wrote a new token for the local user into the data directory",
                metadata: ["file": "\(tokenFile)"]
            )
        } else if let reason = try LocalUser.missingTokenFileReason(
            store: store,
            dataDirectory: dataDirectory.path,
            reissue: !shared
        ) {
            logger.notice(
                "no token file for the local user",
                metadata: ["file": "\(tokenFile)", "reason": "\(reason)"]
            )
        }
    }

    /// SIGTERM and SIGINT shut down gracefully; SIGHUP reloads the TLS certificate and key. The
    /// handlers are in place at once; the shutdown itself runs on the main queue, so not before
    /// `dispatchMain()`.
    private func installSignalHandlers(
        service: StreakService,
        transport: ServerTransport,
        store: SQLStore,
        shared: Bool
    ) {
        let logger = self.logger
        // SIGHUP never stops the server: `kill -HUP` meant for TLS servers (or a closed terminal)
        // must not take a plaintext one down uncleanly.
        let reload: @Sendable () -> Void =
            if let credentials = configuration.tls {
                { ServerRunner.reload(credentials, logger: logger) }
            } else {
                { logger.notice("SIGHUP: this server serves no TLS, so there is nothing to reload; ignored") }
            }
        let shutdown = GracefulShutdown(logger: logger, reload: reload) {
            service.beginShutdown()
            transport.shutdown {
                service.close()
                exit(self.close(store, within: self.closeLimit(shared: shared)))
            }
        }
        shutdown.install(signals: [SIGTERM, SIGINT, SIGHUP])
    }

    /// Starts listening and says where, on standard output (the line scripts wait for) and in
    /// the log. A port that cannot be had closes the store and throws.
    private func listen(_ transport: ServerTransport, store: SQLStore) throws {
        let port: Int
        do {
            port = try transport.start()
        } catch {
            store.close()
            throw error
        }
        warnOfPlaintextInTheOpen()
        logger.info(
            "listening",
            metadata: ["host": "\(configuration.host)", "port": "\(port)", "tls": "\(configuration.tls != nil)"]
        )
        StandardStreams.writeOutput("streakd listening on \(configuration.host):\(port)\n")
    }

    /// How long closing the store may take after the grace period: on PostgreSQL, time for the
    /// waits in progress to reach `--database-timeout` (each of the store's connections, the
    /// writer's, the readers', the follower's, may be in one) and a little more.
    /// SQLite: none (its waits are the disk's).
    private func closeLimit(shared: Bool) -> Duration? {
        shared ? storage.databaseWait * 2 + .seconds(2) : nil
    }

    /// Closes `store` (finishing the writes it holds) and returns the exit status: 0 once it
    /// closed; 1 when it did not within `limit` (PostgreSQL answers nothing): the process then
    /// exits without it, and a write still waiting for its COMMIT's answer was not acknowledged
    /// and may or may not have been committed.
    private func close(_ store: SQLStore, within limit: Duration?) -> Int32 {
        guard let limit else {
            store.close()
            logger.info("stopped")
            return 0
        }
        let closed = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            store.close()
            closed.signal()
        }
        if closed.wait(timeout: .now() + .nanoseconds(Int(limit.nanoseconds))) == .success {
            logger.info("stopped")
            return 0
        }
        logger.error(
            """
            the store did not close in time: exiting without it; storage calls still waiting for \
            PostgreSQL are abandoned (writes among them were not acknowledged, and may or may not \
            have been committed)
            """,
            metadata: ["waited": "\(limit)"]
        )
        return 1
    }

    /// Plaintext on an address other machines reach (only with --insecure-plaintext): a warning
    /// at every start, since bearer tokens travel in clear.
    private func warnOfPlaintextInTheOpen() {
        guard configuration.tls == nil, !NetworkHost.isLoopback(configuration.host) else { return }
        logger.warning(
            """
            serving plaintext on a non-loopback address (--insecure-plaintext): bearer tokens and habit \
            data travel in clear; unless a TLS-terminating proxy on a trusted network is in front, serve \
            TLS with --tls-cert and --tls-key
            """,
            metadata: ["host": "\(configuration.host)"]
        )
    }

    /// SIGHUP: reads the certificate and key again; a pair that does not load keeps the old one.
    private static func reload(_ credentials: TLSServerCredentials, logger: Logger) {
        do {
            let context = try credentials.reload()
            logCertificate(
                context,
                credentials,
                logger: logger,
                event: "reloaded the TLS certificate and key (new connections use them)"
            )
        } catch {
            logger.error(
                "SIGHUP: the TLS certificate and key did not load; still serving the previous ones",
                metadata: ["reason": "\(error.description)"]
            )
        }
    }

    private static func logCertificate(
        _ context: TLSContext,
        _ credentials: TLSServerCredentials,
        logger: Logger,
        event: String
    ) {
        let metadata: Logger.Metadata = [
            "certificate": "\(credentials.certificateFile)", "key": "\(credentials.keyFile)",
            "subject": "\(context.summary)",
        ]
        logger.notice("\(event)", metadata: metadata)
        if context.isExpired {
            logger.warning("the TLS certificate has expired: clients will refuse it", metadata: metadata)
        }
        var status = stat()
        if stat(credentials.keyFile, &status) == 0, status.st_mode & 0o077 != 0 {
            logger.warning(
                "the TLS private key file can be read by other users: make it readable by its owner only (chmod 600)",
                metadata: ["key": "\(credentials.keyFile)", "mode": "\(String(status.st_mode & 0o777, radix: 8))"]
            )
        }
    }
}
