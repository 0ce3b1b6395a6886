import StreakFraming

/// Reads the bearer token of a request's `authorization` metadata.
enum BearerToken {
    /// The token of `Bearer <token>`, or nil when the metadata is missing or has another form.
    /// A view of the metadata value's own storage: authenticating a request copies nothing.
    static func from(_ metadata: [MetadataEntry]) -> Substring? {
        authorization(metadata).flatMap(from)
    }

    /// The token of an `authorization` value of the form `Bearer <token>`, else nil.
    static func from(_ authorization: String) -> Substring? {
        guard authorization.hasPrefix("Bearer ") else { return nil }
        let token = authorization.dropFirst(7)
        return token.isEmpty ? nil : token
    }

    /// The first `authorization` value of `metadata`.
    static func authorization(_ metadata: [MetadataEntry]) -> String? {
        for entry in metadata where entry.key == MetadataEntry.authorizationKey { return entry.value }
        return nil
    }
}
