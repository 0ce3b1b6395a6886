import Dispatch
import Logging
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The write end of the pipe the signal handler writes the signal number to; set once by
/// `GracefulShutdown.install` before the handler is installed, read only by the handler.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// Turns SIGTERM and SIGINT into one graceful shutdown; a second signal exits at once with status 1.
/// SIGHUP, when installed, calls `reload` instead (the TLS certificate and key are read again).
///
/// The handler is a plain `sigaction` handler that writes the signal number to a pipe (all it
/// may do there), and a read source on the main queue reacts to it. Not a Dispatch signal
/// source: libdispatch registers those asynchronously, once the main queue runs, and a signal
/// that came before the registration was lost (ignored) or killed the process: a SIGTERM right
/// after the listening line must already shut down gracefully.
/// `@unchecked`: `source` is written only by `install`, before `dispatchMain()` runs any handler.
final class GracefulShutdown: @unchecked Sendable {
    private let logger: Logger
    private let begin: @Sendable () -> Void
    private let reload: (@Sendable () -> Void)?
    private let started = Atomic<Bool>(false)
    private var source: (any DispatchSourceRead)?

    init(logger: Logger, reload: (@Sendable () -> Void)? = nil, begin: @escaping @Sendable () -> Void) {
        self.logger = logger
        self.reload = reload
        self.begin = begin
    }

    /// Replaces the default action of `signals` at once; their handling runs on the main queue.
    func install(signals: [Int32]) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            logger.critical("cannot create the signal pipe; signals keep their default action")
            return
        }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        signalPipeWriteEnd = ends[1]
        let readEnd = ends[0]
        let source = DispatchSource.makeReadSource(fileDescriptor: readEnd, queue: .main)
        source.setEventHandler { [self] in drain(readEnd) }
        source.resume()
        self.source = source
        for number in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                let saved = errno
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(signalPipeWriteEnd, &byte, 1)
                errno = saved
            }
            action.sa_flags = SA_RESTART
            sigemptyset(&action.sa_mask)
            sigaction(number, &action, nil)
        }
    }

    private func drain(_ descriptor: Int32) {
        var byte: UInt8 = 0
        while read(descriptor, &byte, 1) == 1 { received(Int32(byte)) }
    }

    private func received(_ number: Int32) {
        if number == SIGHUP, let reload {
            reload()
            return
        }
        if started.exchange(true, ordering: .acquiringAndReleasing) {
            logger.warning("second signal during shutdown; exiting now", metadata: ["signal": "\(number)"])
            exit(1)
        }
        logger.info("shutting down", metadata: ["signal": "\(number)"])
        begin()
    }
}
