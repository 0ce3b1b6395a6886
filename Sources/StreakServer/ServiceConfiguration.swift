/// What `StreakService` reports about itself and how long it trusts what it cached.
public struct ServiceConfiguration: Sendable {
    /// The server version GetServerInfo reports.
    public var version: String
    /// The storage name GetServerInfo reports: "sqlite" or "postgres".
    public var storageName: String
    /// How long a token's authentication is trusted before the store is asked again;
    /// bounds how long a revoked token keeps working (and its Watch streams stay open).
    public var tokenCacheTTL: Duration
    /// The most encoded responses kept per user (and, times eight, for the stateless builders)
    /// before the cache is emptied.
    public var responseCacheLimit: Int
    /// The most bytes of cached responses per user, request keys included.
    public var responseCacheBytesPerUser: Int
    /// The most bytes of cached stateless-builder answers, request keys included.
    public var builderCacheBytes: Int
    /// A request and its answer larger than this together are never cached.
    public var responseCacheEntryBytes: Int

    /// Creates a configuration with a two-second token cache and, per user, at most 512 cached
    /// responses in 2 MiB (16 MiB for the builders), none over 256 KiB.
    public init(
        version: String,
        storageName: String,
        tokenCacheTTL: Duration = .seconds(2),
        responseCacheLimit: Int = 512,
        responseCacheBytesPerUser: Int = 2 << 20,
        builderCacheBytes: Int = 16 << 20,
        responseCacheEntryBytes: Int = 256 << 10
    ) {
        self.version = version
        self.storageName = storageName
        self.tokenCacheTTL = tokenCacheTTL
        self.responseCacheLimit = responseCacheLimit
        self.responseCacheBytesPerUser = responseCacheBytesPerUser
        self.builderCacheBytes = builderCacheBytes
        self.responseCacheEntryBytes = responseCacheEntryBytes
    }

    /// The bounds of one user's response cache.
    var userCacheLimits: ResponseCacheLimits {
        ResponseCacheLimits(
            entries: responseCacheLimit,
            bytes: responseCacheBytesPerUser,
            entryBytes: responseCacheEntryBytes
        )
    }
}
