import StreakFraming

/// Reads the bearer token of a request's `authorization` metadata.
enum BearerToken {
    /// The token of `Bearer <token>`, or nil when the metadata is missing or has another form.
    static func from(_ metadata: [MetadataEntry]) -> String? {
        for entry in metadata where entry.key == MetadataEntry.authorizationKey {
            let value = entry.value
            guard value.hasPrefix("Bearer ") else { return nil }
            let token = value.dropFirst(7)
            return token.isEmpty ? nil : String(token)
        }
        return nil
    }
}
