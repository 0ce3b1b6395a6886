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

    /// GetServerInfo: version, uptime and counters.
    func serverInfo() -> WireGetServerInfoResponse {
        WireGetServerInfoResponse.with {
            $0.version = configuration.version
            $0.uptimeSeconds = counters.uptimeSeconds
            $0.storage = configuration.storageName
            $0.requestsTotal = counters.requests.load(ordering: .relaxed)
            $0.errorsTotal = counters.errors.load(ordering: .relaxed)
            $0.connectionsCurrent = UInt64(connectionCounter?() ?? 0)
            $0.protocolVersion = UInt32(Preface.version)
        }
    }
}
