import Dispatch
import Foundation
import Logging
import StreakPOSIX
import StreakServer
import StreakStorage
import StreakTransport

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
        signal(SIGPIPE, SIG_IGN)
        ResourceLimits.limitMallocArenas()
        let limit = ResourceLimits.raiseOpenFileLimit()
        logger.debug("open file limit", metadata: ["limit": "\(limit)"])

        try DataDirectoryLock.acquire(directory: dataDirectory)
        let store = try storage.openStore(directory: dataDirectory)
        let shared = store is PostgresStore
        // A shared database keeps its local user's token: another server's data directory may hold it.
        if try LocalUser.ensure(
            store: store,
            dataDirectory: dataDirectory.path,
            reissue: !shared,
            timeZone: MachineTimeZone.identifier()
        ) != nil {
            logger.notice(
                "wrote a new token for the local user into the data directory",
                metadata: ["file": "\(dataDirectory.appendingPathComponent(LocalUser.tokenFileName).path)"]
            )
        }
        let service = StreakService(
            store: store,
            configuration: ServiceConfiguration(
                version: StreakdVersion.current,
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
        service.connectionCounter = { transport.connectionCount }

        // Before the listening line: a SIGTERM right after it must already shut down gracefully.
        // The handler is in place at once; the shutdown itself runs on the main queue, so not
        // before dispatchMain() below.
        let shutdown = GracefulShutdown(logger: logger) {
            service.beginShutdown()
            transport.shutdown {
                service.close()
                store.close()
                self.logger.info("stopped")
                exit(0)
            }
        }
        shutdown.install(signals: [SIGTERM, SIGINT])

        let port: Int
        do {
            port = try transport.start()
        } catch {
            store.close()
            throw error
        }
        logger.info("listening", metadata: ["host": "\(configuration.host)", "port": "\(port)"])
        FileHandle.standardOutput.write(Data("streakd listening on \(configuration.host):\(port)\n".utf8))
        dispatchMain()
    }
}
