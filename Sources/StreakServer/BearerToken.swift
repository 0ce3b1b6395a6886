import StreakFraming

/// Reads the bearer token of a request's `authorization` metadata.
enum BearerToken {
    /// The token of `Bearer <token>`, or nil when the metadata is missing or has another form.
    /// A view of the metadata value's own storage: authenticating a request copies nothing.
    static func from(_ metadata: [MetadataEntry]) -> Substring? {
        for entry in metadata where entry.key == MetadataEntry.authorizationKey {
            let value = entry.value
            guard value.hasPrefix("Bearer ") else { return nil }
            let token = value.dropFirst(7)
            return token.isEmpty ? nil : token
        }
        return nil
    }
}
