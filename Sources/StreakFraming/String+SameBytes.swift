extension String {
    /// Whether `self` and `other` are the same UTF-8 bytes. `==` is not that: it also equates
    /// canonically equivalent text (a Kelvin sign and a K), where a credential must match byte for
    /// byte. Compared eight bytes at a time when both are contiguous, as native strings are, and
    /// not at all when both are the same storage.
    package func hasSameBytes(as other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        let contiguous = utf8.withContiguousStorageIfAvailable { mine in
            other.utf8.withContiguousStorageIfAvailable { theirs in
                // The same storage (a connection's repeated string handed back): nothing to compare.
                mine.baseAddress == theirs.baseAddress || RepeatedRequestParts.sameBytes(mine, theirs)
            }
        }
        if let contiguous, let same = contiguous { return same }
        return utf8.elementsEqual(other.utf8)
    }
}
