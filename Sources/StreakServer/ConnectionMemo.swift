import StreakFraming
import StreakTransport
import StreakWire

/// What the fast path remembers of a connection's last requests, kept on its responder
/// (`Responder.handlerMemo`) and used only on the connection's loop thread.
///
/// A connection repeats itself: the same `authorization` value with every request, and mostly
/// the same few methods. The transport hands a connection's repeated strings back as the same
/// `String` values, so recognising them is one comparison of the strings' storage, where
/// working them out again means parsing, checking and hashing them.
final class ConnectionMemo {
    /// The user the connection's requests last authenticated as.
    struct Authentication {
        /// The whole `authorization` value, as the request carried it.
        let authorization: String
        /// The token in it: a view of `authorization`.
        let token: Substring
        let acceptance: TokenCache.Acceptance
    }

    var authentication: Authentication?
    /// The method paths of the connection's last few distinct methods, with their methods.
    private var methods: [(path: String, method: WireMethod)] = []
    /// Where the next method path not remembered goes once `methods` is full.
    private var nextMethodSlot = 0
    /// Method paths remembered at most: a client alternating a few methods (a write and its
    /// undo, a read and a write) finds each of them.
    static let methodCapacity = 4

    /// `responder`'s memo, made on its first request.
    static func of(_ responder: Responder) -> ConnectionMemo {
        if let memo = responder.handlerMemo as? ConnectionMemo { return memo }
        let memo = ConnectionMemo()
        responder.handlerMemo = memo
        return memo
    }

    /// The method at `path` (`MethodTable.method`), without hashing the path when one of the
    /// connection's last few methods is at that path.
    func method(_ path: String) -> WireMethod? {
        for entry in methods where entry.path == path { return entry.method }
        guard let method = MethodTable.method(path) else { return nil }
        if methods.count < Self.methodCapacity {
            methods.append((path, method))
        } else {
            methods[nextMethodSlot] = (path, method)
            nextMethodSlot = (nextMethodSlot + 1) % Self.methodCapacity
        }
        return method
    }

    /// The remembered authentication, when `authorization` is byte for byte the value it was
    /// remembered for and the token cache's acceptance still holds (`TokenCache.holds`: its entry
    /// has not expired, and no entry that had not expired was dropped since, as a refusal of an
    /// accepted token drops one). A revoked token therefore stops working here no later than in
    /// the cache.
    func authentication(for authorization: String, in tokens: TokenCache) -> Authentication? {
        guard let authentication, authentication.authorization.hasSameBytes(as: authorization),
            tokens.holds(authentication.acceptance)
        else { return nil }
        return authentication
    }
}
