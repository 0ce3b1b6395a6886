#if canImport(Glibc)
import Glibc
#endif

/// Starts threads of their own for the loops that own one (the event loops, the storage writer,
/// the checkpointer): a detached POSIX thread with a name that `top -H`, `perf` and `gdb` show.
///
/// Foundation's `Thread` does the same; this keeps the server off swift-corelibs-foundation, whose
/// library alone is about 4 MiB of resident pages in every process that links it.
public enum NamedThread {
    /// Runs `body` on a new detached thread named `name` (Linux keeps its first 15 bytes).
    public static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Context(name: name, body: body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(
            &thread,
            nil,
            { raw in
                guard let raw else { return nil }
                let context = Unmanaged<Context>.fromOpaque(raw).takeRetainedValue()
                context.nameCurrentThread()
                context.body()
                return nil
            },
            context
        )
        guard result == 0 else {
            Unmanaged<Context>.fromOpaque(context).release()
            fatalError("pthread_create failed for thread \(name): error \(result)")
        }
        pthread_detach(thread)
    }

    private final class Context: Sendable {
        let name: String
        let body: @Sendable () -> Void

        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }

        /// Names the calling thread through `/proc/thread-self/comm` (what `pthread_setname_np`
        /// writes; Glibc's Swift module does not declare that call).
        func nameCurrentThread() {
            var bytes = Array(name.utf8.prefix(15))
            // ASCII only, so that a UTF-8 sequence is never cut in half.
            while let last = bytes.last, last >= 0x80 { bytes.removeLast() }
            let file = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
            guard file >= 0 else { return }
            _ = bytes.withUnsafeBytes { buffer in retryingOnInterrupt { write(file, buffer.baseAddress, buffer.count) }
            }
            close(file)
        }
    }
}

extension NamedThread {
    /// Puts the calling thread to sleep for `duration` (`nanosleep`, resumed after signals);
    /// returns at once for a duration that is not positive.
    public static func sleep(for duration: Duration) {
        guard duration > .zero else { return }
        let (seconds, attoseconds) = duration.components
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR {
            request = remaining
        }
    }
}
