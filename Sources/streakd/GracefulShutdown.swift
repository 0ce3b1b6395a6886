import Dispatch
import Logging
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Turns SIGTERM and SIGINT into one graceful shutdown; a second signal exits at once with status 1.
/// `@unchecked`: `sources` is written only by `install`, before `dispatchMain()` runs any handler.
final class GracefulShutdown: @unchecked Sendable {
    private let logger: Logger
    private let begin: @Sendable () -> Void
    private let started = Atomic<Bool>(false)
    private var sources: [any DispatchSourceSignal] = []

    init(logger: Logger, begin: @escaping @Sendable () -> Void) {
        self.logger = logger
        self.begin = begin
    }

    /// Replaces the default action of `signals` with a dispatch source on the main queue.
    func install(signals: [Int32]) {
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
            source.setEventHandler { [self] in received(number) }
            source.resume()
            sources.append(source)
        }
    }

    private func received(_ number: Int32) {
        if started.exchange(true, ordering: .acquiringAndReleasing) {
            logger.warning("second signal during shutdown; exiting now", metadata: ["signal": "\(number)"])
            exit(1)
        }
        logger.info("shutting down", metadata: ["signal": "\(number)"])
        begin()
    }
}
