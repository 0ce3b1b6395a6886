import StreakFraming
import StreakTransport
import StreakWire

extension StreakService {
    /// Ping: echoes the payload; `serving` is false once shutdown began. Needs no token.
    func ping(_ request: IncomingRequest) throws -> [UInt8] {
        let message = try WirePingRequest(serializedBytes: request.message)
        return WirePingResponse.with {
            $0.payload = message.payload
            $0.serving = !isShuttingDown
        }.serializedBytes()
    }

    /// GetServerInfo: version, uptime, counters, the users in memory, the other servers' changes and
    /// the store's upkeep that is failing.
    func serverInfo(_ request: IncomingRequest) throws -> WireGetServerInfoResponse {
        _ = try WireGetServerInfoRequest(serializedBytes: request.message)
        let usage = users.usage
        let following = follower.counts
        let connections = connectionCounter?() ?? (open: 0, served: 0)
        return WireGetServerInfoResponse.with {
            $0.version = configuration.version
            $0.uptimeSeconds = counters.uptimeSeconds
            $0.storage = configuration.storageName
            $0.requestsTotal = counters.requests.load(ordering: .relaxed)
            $0.errorsTotal = counters.errors.load(ordering: .relaxed)
            $0.connectionsCurrent = UInt64(connections.open)
            $0.connectionsTotal = connections.served
            $0.protocolVersion = UInt32(Preface.version)
            $0.usersHeld = UInt64(usage.held)
            $0.usersEvicted = usage.evicted
            $0.userMemoryBytes = UInt64(max(0, usage.bytes))
            $0.userMemoryBudgetBytes = UInt64(usage.budget ?? 0)
            $0.usersDropped = usage.dropped
            $0.changeNoticesTotal = following.notices
            $0.storageUpkeepFailing = upkeepHealth.current.map(\.wire)
        }
    }
}
