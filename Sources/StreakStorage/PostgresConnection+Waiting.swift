internal import CPostgres
import Glibc

/// Bounded waits: libpq's asynchronous calls on a non-blocking socket, awaited with poll(2).
extension PostgresConnection {
    /// Waits until the socket is ready for `events` (poll(2) flags), and returns those it is
    /// ready for. At `deadline` the connection is abandoned and the wait throws.
    func wait(for events: Int16, until deadline: ContinuousClock.Instant) throws(StorageError) -> Int16 {
        guard let handle else { throw StorageError(.io, "the connection to PostgreSQL is lost") }
        var descriptor = pollfd(fd: streak_PQsocket(handle), events: events, revents: 0)
        guard descriptor.fd >= 0 else { throw StorageError(.io, "the connection to PostgreSQL is lost") }
        while true {
            let left = deadline - ContinuousClock.now
            let milliseconds =
                left <= .zero
                ? 0
                : Int32(
                    clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1
                )
            let ready = poll(&descriptor, 1, milliseconds)
            if ready > 0 { return descriptor.revents }
            if ready < 0 && errno == EINTR { continue }
            if ready == 0 && ContinuousClock.now < deadline { continue }
            abandon()
            throw StorageError(
                .io,
                "PostgreSQL did not answer within \(Self.seconds(timeout)); the connection was abandoned"
            )
        }
    }

    /// Sends what libpq holds for the server, waiting for the socket to take it.
    func flush(until deadline: ContinuousClock.Instant) throws(StorageError) {
        while true {
            let pending = streak_PQflush(handle)
            if pending == 0 { return }
            guard pending == 1 else { throw lost("send") }
            let ready = try wait(for: Int16(POLLIN | POLLOUT), until: deadline)
            // Reading makes room: the server may be blocked writing to us.
            if ready & Int16(POLLIN) != 0, streak_PQconsumeInput(handle) != 1 { throw lost("send") }
        }
    }

    /// The next result of what was sent, waiting for it until `deadline`; nil when there is no
    /// more (libpq's `PQgetResult`, without its endless wait).
    func nextResult(until deadline: ContinuousClock.Instant) throws(StorageError) -> OpaquePointer? {
        while streak_PQisBusy(handle) == 1 {
            _ = try wait(for: Int16(POLLIN), until: deadline)
            // A read that fails broke the connection: PQgetResult then gives its error.
            guard streak_PQconsumeInput(handle) == 1 else { break }
        }
        return streak_PQgetResult(handle)
    }

    /// After a command was handed to libpq (`sent`: its PQsend... result), sends it and reads all
    /// of its results: the first that failed, else the last (as PQexec). The caller clears it.
    func results(
        of sent: Int32,
        _ operation: String,
        until deadline: ContinuousClock.Instant
    ) throws(StorageError) -> OpaquePointer {
        guard sent == 1 else { throw lost(operation) }
        try flush(until: deadline)
        var kept: OpaquePointer?
        do {
            while let result = try nextResult(until: deadline) {
                if let previous = kept {
                    let status = streak_PQresultStatus(previous)
                    if status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK {
                        streak_PQclear(result)
                        continue
                    }
                    streak_PQclear(previous)
                }
                kept = result
            }
        } catch {
            streak_PQclear(kept)
            throw error
        }
        guard let kept else { throw lost(operation) }
        return kept
    }

    /// A duration as "10 s" (or "0.5 s").
    static func seconds(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(Double(milliseconds) / 1000) s"
    }
}
