#pragma once
#include <stddef.h>

/// TLS through the system's OpenSSL (Debian's libssl-dev), over memory BIOs: the caller moves
/// ciphertext between the socket and the session itself, so one event loop can drive many
/// sessions without blocking and without a thread per connection. The server's event loops,
/// the Swift client and the load generator share it. OpenSSL's types stay out of this header.
///
/// Not thread-safe per session: one thread (or one lock) at a time for a session. Contexts are
/// reference counted by OpenSSL: a session keeps its context alive after
/// streak_tls_context_free(), which is what lets a server swap contexts while connections run.

typedef struct streak_tls_context streak_tls_context;
typedef struct streak_tls streak_tls;

/// The results of streak_tls_handshake, streak_tls_read and streak_tls_write below 1.
enum {
    /// More ciphertext from the peer is needed (feed it, then call again).
    STREAK_TLS_WANT_READ = -1,
    /// The peer closed the TLS session (close_notify, or the end of the stream).
    STREAK_TLS_CLOSED = -2,
    /// The session failed: streak_tls_error() says why. Nothing more can be done with it.
    STREAK_TLS_FAILED = -3,
};

/// A server context for TLS 1.2 and later with the PEM certificate chain in `certificate_file`
/// and the PEM private key in `key_file`; ALPN "streakd/1" is chosen when a client offers it.
/// NULL on failure, with the reason in `error` (which file, and OpenSSL's reason).
streak_tls_context *streak_tls_server_context(const char *certificate_file, const char *key_file,
                                              char *error, size_t error_size);

/// A client context for TLS 1.2 and later that verifies the server's certificate against the
/// PEM certificates in `ca_file` (NULL: OpenSSL's default paths, Debian's system store) and
/// offers ALPN "streakd/1". NULL on failure, with the reason in `error`.
streak_tls_context *streak_tls_client_context(const char *ca_file, char *error, size_t error_size);

/// Releases the caller's reference; sessions made from the context keep theirs.
void streak_tls_context_free(streak_tls_context *context);

/// The server certificate's subject, issuer and expiry ("CN=localhost, issued by CN=..., valid
/// until Jun  1 12:00:00 2027 GMT") into `out`. Returns 1 when the certificate has expired, 0
/// when it is valid now, -1 when the context holds none.
int streak_tls_context_describe(streak_tls_context *context, char *out, size_t out_size);

/// A server session (it waits for the client's hello). NULL when OpenSSL is out of memory.
streak_tls *streak_tls_server_session(streak_tls_context *context);

/// A client session that sends `server_name` as SNI (a DNS name only) and checks that the
/// certificate is for it: a DNS name against the DNS names, an IPv4 or IPv6 address against
/// the IP addresses. NULL on failure, with the reason in `error`.
streak_tls *streak_tls_client_session(streak_tls_context *context, const char *server_name, char *error,
                                      size_t error_size);

/// Frees the session (its SSL object and both memory BIOs).
void streak_tls_session_free(streak_tls *session);

/// Hands OpenSSL `count` bytes of ciphertext that arrived from the peer. Returns 1, or 0 when
/// out of memory.
int streak_tls_feed(streak_tls *session, const void *bytes, size_t count);

/// Advances the handshake: 1 when it is complete, else a STREAK_TLS_* status. Ciphertext for
/// the peer may be waiting afterwards either way (send it: an alert explains a failure).
int streak_tls_handshake(streak_tls *session);

/// Whether the handshake completed.
int streak_tls_handshake_done(const streak_tls *session);

/// Decrypts into `buffer`: the byte count (over 0), else a STREAK_TLS_* status. Drives the
/// handshake first when it is not complete.
int streak_tls_read(streak_tls *session, void *buffer, size_t capacity);

/// Whether decrypted bytes are waiting inside the session (a record read only in part).
int streak_tls_has_buffered_input(const streak_tls *session);

/// Encrypts `count` bytes (at most 1 GiB) into the outgoing ciphertext: `count`, else a
/// STREAK_TLS_* status.
int streak_tls_write(streak_tls *session, const void *bytes, size_t count);

/// Writes a close_notify alert into the outgoing ciphertext (once; later calls do nothing).
void streak_tls_close_notify(streak_tls *session);

/// The outgoing ciphertext waiting to be sent, in bytes.
size_t streak_tls_pending_output(const streak_tls *session);

/// Moves up to `capacity` bytes of outgoing ciphertext into `buffer`; returns how many.
size_t streak_tls_take_output(streak_tls *session, void *buffer, size_t capacity);

/// Sends outgoing ciphertext to the socket `fd` without blocking (MSG_DONTWAIT, MSG_NOSIGNAL)
/// until none is left or the socket is full. Returns the bytes still waiting (0: all sent), or
/// -1 when the socket failed (errno is set).
long streak_tls_send_output(streak_tls *session, int fd);

/// Why the last call failed, e.g. "certificate verify failed: certificate has expired" or
/// "tlsv1 alert unknown ca"; empty when nothing failed.
const char *streak_tls_error(const streak_tls *session);

/// The certificate verification result (X509_V_OK is 0); meaningful for a client session.
long streak_tls_verify_result(const streak_tls *session);

/// OpenSSL's text for a verification result, e.g. "Hostname mismatch".
const char *streak_tls_verify_text(long result);

/// The protocol ("TLSv1.3") and cipher of a session whose handshake completed.
const char *streak_tls_protocol(const streak_tls *session);
const char *streak_tls_cipher(const streak_tls *session);

/// The ALPN protocol agreed on into `out` (empty when none was). Returns its length.
size_t streak_tls_alpn(const streak_tls *session, char *out, size_t out_size);

/// The verification results the Swift side names: OpenSSL's X509_V_ERR_* values.
enum {
    STREAK_TLS_VERIFY_OK = 0,
    STREAK_TLS_VERIFY_UNABLE_TO_GET_ISSUER_CERT = 2,
    STREAK_TLS_VERIFY_CERT_NOT_YET_VALID = 9,
    STREAK_TLS_VERIFY_CERT_HAS_EXPIRED = 10,
    STREAK_TLS_VERIFY_DEPTH_ZERO_SELF_SIGNED_CERT = 18,
    STREAK_TLS_VERIFY_SELF_SIGNED_CERT_IN_CHAIN = 19,
    STREAK_TLS_VERIFY_UNABLE_TO_GET_ISSUER_CERT_LOCALLY = 20,
    STREAK_TLS_VERIFY_UNABLE_TO_VERIFY_LEAF_SIGNATURE = 21,
    STREAK_TLS_VERIFY_HOSTNAME_MISMATCH = 62,
    STREAK_TLS_VERIFY_IP_ADDRESS_MISMATCH = 64,
};
