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
    /// The bytes that users held in memory may take (their data and cached answers), kept by
    /// evicting the least recently used; nil: no bound.
    public var userMemoryBudget: Int?
    /// How long the changes another server made to a user held here may wait to be read before
    /// the user is dropped from memory instead (and loaded again on its next request).
    public var followerMaximumLag: Duration

    /// Creates a configuration with a two-second token cache and, per user, at most 512 cached
    /// responses in 2 MiB (16 MiB for the builders), none over 256 KiB; users take at most
    /// 256 MiB in all.
    public init(
        version: String,
        storageName: String,
        tokenCacheTTL: Duration = .seconds(2),
        responseCacheLimit: Int = 512,
        responseCacheBytesPerUser: Int = 2 << 20,
        builderCacheBytes: Int = 16 << 20,
        responseCacheEntryBytes: Int = 256 << 10,
        userMemoryBudget: Int? = ServiceConfiguration.defaultUserMemoryBudget,
        followerMaximumLag: Duration = .seconds(2)
    ) {
        self.version = version
        self.storageName = storageName
        self.tokenCacheTTL = tokenCacheTTL
        self.responseCacheLimit = responseCacheLimit
        self.responseCacheBytesPerUser = responseCacheBytesPerUser
        self.builderCacheBytes = builderCacheBytes
        self.responseCacheEntryBytes = responseCacheEntryBytes
        self.userMemoryBudget = userMemoryBudget
        self.followerMaximumLag = followerMaximumLag
    }

    /// The default user memory budget: 256 MiB.
    public static let defaultUserMemoryBudget = 256 << 20

    /// The bounds of one user's response cache.
    var userCacheLimits: ResponseCacheLimits {
        ResponseCacheLimits(
            entries: responseCacheLimit,
            bytes: responseCacheBytesPerUser,
            entryBytes: responseCacheEntryBytes
        )
    }
}
