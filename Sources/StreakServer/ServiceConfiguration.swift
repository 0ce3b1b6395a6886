/// What `StreakService` reports about itself and how long it trusts what it cached.
public struct ServiceConfiguration: Sendable {
    /// The server version GetServerInfo reports.
    public var version: String
    /// The storage name GetServerInfo reports: "sqlite" or "postgres".
    public var storageName: String
    /// How long a token's authentication is trusted before the store is asked again;
    /// bounds how long a revoked token keeps working.
    public var tokenCacheTTL: Duration
    /// The most encoded responses kept per user (and for the stateless builders) before the cache is emptied.
    public var responseCacheLimit: Int

    /// Creates a configuration with a two-second token cache and 512 cached responses per user.
    public init(
        version: String,
        storageName: String,
        tokenCacheTTL: Duration = .seconds(2),
        responseCacheLimit: Int = 512
    ) {
        self.version = version
        self.storageName = storageName
        self.tokenCacheTTL = tokenCacheTTL
        self.responseCacheLimit = responseCacheLimit
    }
}
