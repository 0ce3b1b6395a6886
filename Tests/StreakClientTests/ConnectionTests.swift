import Foundation
import StreakClient
import StreakFraming
import StreakTestSupport
import StreakWire
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("Connection behaviour against a scripted server")
struct ConnectionTests {
    private func client(port: Int) -> StreakClient {
        StreakClient(
            configuration: ClientConfiguration(
                server: ServerAddress(host: "127.0.0.1", port: port),
                token: "stk_test",
                defaultDeadline: nil
            )
        )
    }

    @Test(.ownThreads, .timeLimit(.minutes(1)))
    func deadlineIsSentAndEnforcedLocally() async throws {
        let server = try FakeServer { _, _, _ in }  // never answers
        defer { server.stop() }
        let client = client(port: server.port)
        defer { client.close() }
        await #expect(throws: StreakClientError.self) {
            // Long enough to connect on a busy machine: a request whose deadline passes first is never sent.
            let _: WirePingResponse = try await client.call(.ping, WirePingRequest(), deadline: .seconds(1))
        }
        do {
            let _: WireGetStreakResponse = try await client.call(
                .getStreak,
                WireGetStreakRequest(),
                deadline: .milliseconds(50)
            )
            Issue.record("a server that never answers answered")
        } catch {
            #expect(error.code == .deadlineExceeded)
        }
        let requests = server.frames.compactMap { frame -> [MetadataEntry]? in
            if case .request(_, _, let metadata, _) = frame { return metadata }
            return nil
        }
        try #require(requests.count == 2)
        #expect(requests[1].contains(MetadataEntry(key: "deadline-ms", value: "50")))
        #expect(requests[1].contains(MetadataEntry(key: "authorization", value: "Bearer stk_test")))
        #expect(!requests[0].contains { $0.key == "authorization" })  // Ping needs no token
    }

    @Test(.ownThreads) func taskCancellationSendsCancel() async throws {
        let server = try FakeServer { _, _, _ in }
        defer { server.stop() }
        let client = client(port: server.port)
        defer { client.close() }
        let task = Task(executorPreference: TestThreads.shared) {
            () async throws(StreakClientError) -> WireGetStreakResponse in
            try await client.call(.getStreak, WireGetStreakRequest())
        }
        for _ in 0..<1000 where server.frames.isEmpty {  // up to 10 s: CI runs many tests at once
            try await Task.sleep(for: .milliseconds(10))
        }
        try #require(!server.frames.isEmpty, "the request never reached the server")
        task.cancel()
        let result = await task.result
        #expect(throws: StreakClientError.self) { try result.get() }
        if case .failure(let error) = result { #expect((error as? StreakClientError)?.code == .cancelled) }
        for _ in 0..<1000 where !server.frames.contains(where: { if case .cancel = $0 { true } else { false } }) {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(server.frames.contains { if case .cancel(let id) = $0 { id == 1 } else { false } })
    }

    @Test(.ownThreads) func goAwayMovesNewRequestsToAFreshConnection() async throws {
        // Connection 0 answers request 1, then sends GOAWAY(last 1) for request 2; connection 1 answers all.
        let server = try FakeServer { index, frame, peer in
            guard case .request(let id, _, _, _) = frame else { return }
            let ok = Frame.response(id: id, status: .ok, message: WirePingResponse(serving: true).serializedBytes())
            if index == 0 && id > 1 {
                peer.send(.goAway(lastRequestID: 1, status: Status(.unavailable, "shutting down")))
            } else {
                peer.send(ok)
            }
        }
        defer { server.stop() }
        let client = client(port: server.port)
        defer { client.close() }
        let first = try await client.ping()
        let second = try await client.ping()  // refused by GOAWAY, retried on a new connection
        let third = try await client.ping()
        #expect(first.serving && second.serving && third.serving)
        #expect(server.connectionCount == 2)
    }

    @Test(.ownThreads) func manyRequestsInFlightOnOneConnection() async throws {
        // Answers in reverse order of arrival, in batches of 50, to prove matching by id.
        let pending = PendingIDs()
        let server = try FakeServer { _, frame, peer in
            guard case .request(let id, _, _, let message) = frame else { return }
            let ready = pending.add((id, message))
            for (id, message) in ready.reversed() {
                let request = try! WirePingRequest(serializedBytes: message)
                peer.send(
                    .response(
                        id: id,
                        status: .ok,
                        message: WirePingResponse(payload: request.payload).serializedBytes()
                    )
                )
            }
        }
        defer { server.stop() }
        let client = client(port: server.port)
        defer { client.close() }
        let echoed = try await withThrowingTaskGroup(of: (UInt8, [UInt8]).self) { group in
            for index in 0..<200 {
                group.addTask { (UInt8(index % 256), try await client.ping(payload: [UInt8(index % 256)]).payload) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(echoed.count == 200)
        #expect(echoed.allSatisfy { [$0.0] == $0.1 })
        #expect(server.connectionCount == 1)
    }

    @Test(.ownThreads) func connectionRefusedSaysHowToStartTheServer() async throws {
        let reserved = try ReservedPort()  // bound, not listening: refused
        let port = reserved.port
        do {
            _ = try await client(port: port).ping()
            Issue.record("expected a failure")
        } catch {
            #expect(error.origin == .connect)
            #expect(error.systemErrorCode == ECONNREFUSED)
            #expect(error.code == .unavailable)
            #expect(error.message.contains("cannot reach streakd at 127.0.0.1:\(port)"))
        }
    }
}

/// Collects requests and releases them in batches of 50.
final class PendingIDs: @unchecked Sendable {
    private let lock = NSLock()
    private var waiting: [(UInt32, [UInt8])] = []

    func add(_ entry: (UInt32, [UInt8])) -> [(UInt32, [UInt8])] {
        lock.withLock {
            waiting.append(entry)
            guard waiting.count == 50 else { return [] }
            defer { waiting = [] }
            return waiting
        }
    }
}
