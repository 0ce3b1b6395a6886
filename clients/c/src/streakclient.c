/* streakclient: framing (PROTOCOL.md sections 1-2) and synchronous calls over a TCP socket. */
#include "streakclient.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

enum {
    KIND_REQUEST = 1, KIND_RESPONSE = 2, KIND_STREAM_MESSAGE = 3, KIND_END_STREAM = 4,
    KIND_CANCEL = 5, KIND_PING = 6, KIND_PONG = 7, KIND_GOAWAY = 8
};

static const uint8_t PREFACE[8] = {'S', 'T', 'R', 'E', 'A', 'K', 'D', 1};
#define MAX_FRAME_SIZE (4u * 1024u * 1024u)
#define SERVICE_PREFIX "/streak.v1.Streaks/"

struct streak_client {
    int fd;
    SSL *ssl; /* NULL for plaintext */
    uint32_t next_id;
    int closed;
    streak_status close_status; /* why the connection is unusable, once closed */
    /* The frame being received: kept across calls, so that a deadline that passes mid-frame
     * leaves the connection usable (the next read goes on where this one stopped). */
    uint8_t rx_header[9];
    size_t rx_header_got;
    uint8_t *rx_body; /* NULL until the header is complete */
    size_t rx_body_got;
};

static const char *const CODE_NAMES[] = {
    "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
    "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED",
    "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED"};

const char *streak_code_name(int code) {
    if (code < 0 || code > 16) return "UNKNOWN_CODE";
    return CODE_NAMES[code];
}

static streak_code set_status(streak_status *status, streak_code code, const char *format, ...) {
    if (status != NULL) {
        status->code = code;
        va_list args;
        va_start(args, format);
        vsnprintf(status->message, sizeof status->message, format, args);
        va_end(args);
    }
    return code;
}

/* The length of the Unicode White_Space character (UTF-8) at p, or 0 when there is none. */
static size_t white_space_at(const unsigned char *p) {
    if ((p[0] >= 0x09 && p[0] <= 0x0D) || p[0] == 0x20) return 1;
    if (p[0] == 0xC2 && (p[1] == 0x85 || p[1] == 0xA0)) return 2;          /* U+0085, U+00A0 */
    if (p[0] == 0xE1 && p[1] == 0x9A && p[2] == 0x80) return 3;            /* U+1680 */
    if (p[0] == 0xE2 && p[1] == 0x80 &&
        ((p[2] >= 0x80 && p[2] <= 0x8A) || p[2] == 0xA8 || p[2] == 0xA9 || p[2] == 0xAF)) return 3;
    if (p[0] == 0xE2 && p[1] == 0x81 && p[2] == 0x9F) return 3;            /* U+205F */
    if (p[0] == 0xE3 && p[1] == 0x80 && p[2] == 0x80) return 3;            /* U+3000 */
    return 0;
}

int streak_parse_address(const char *address, char *host, size_t host_size, uint16_t *port) {
    if (address == NULL || address[0] == '\0') return -1;
    for (const unsigned char *p = (const unsigned char *)address; *p != '\0'; p++) {
        if (white_space_at(p) != 0) return -1;
    }
    if (strstr(address, "://") != NULL || strchr(address, '/') != NULL) return -1; /* a scheme, a path */
    const char *start, *port_text = NULL;
    size_t length;
    if (address[0] == '[') {
        const char *close = strchr(address, ']');
        if (close == NULL) return -1;
        start = address + 1;
        length = (size_t)(close - start);
        if (close[1] != '\0') {
            if (close[1] != ':') return -1;
            port_text = close + 2;
        }
        /* Brackets hold an IPv6 address. */
        if (memchr(start, ':', length) == NULL || memchr(start, '[', length) != NULL) return -1;
    } else {
        const char *colon = strchr(address, ':');
        if (colon != NULL && strchr(colon + 1, ':') != NULL) return -1; /* IPv6 goes in brackets */
        start = address;
        length = colon != NULL ? (size_t)(colon - address) : strlen(address);
        if (colon != NULL) port_text = colon + 1;
    }
    if (memchr(start, '[', length) != NULL || memchr(start, ']', length) != NULL) return -1;
    long value = STREAK_DEFAULT_PORT;
    if (port_text != NULL) {
        /* ASCII digits only (strtol alone takes " 80" and "+80"), 1...65535. */
        if (port_text[0] == '\0') return -1;
        value = 0;
        for (const char *p = port_text; *p != '\0'; p++) {
            if (*p < '0' || *p > '9') return -1;
            value = value * 10 + (*p - '0');
            if (value > 65535) return -1;
        }
        if (value < 1) return -1;
    }
    if (length == 0) { start = "127.0.0.1"; length = strlen(start); }
    if (length + 1 > host_size) return -1;
    memcpy(host, start, length);
    host[length] = '\0';
    *port = (uint16_t)value;
    return 0;
}

int streak_is_loopback(const char *host) {
    if (host == NULL) return 0;
    if (strcasecmp(host, "localhost") == 0) return 1;
    struct in_addr v4;
    if (inet_pton(AF_INET, host, &v4) == 1) return ntohl(v4.s_addr) >> 24 == 127;
    struct in6_addr v6;
    static const struct in6_addr one = IN6ADDR_LOOPBACK_INIT;
    return inet_pton(AF_INET6, host, &v6) == 1 && memcmp(&v6, &one, sizeof v6) == 0;
}

/* ---- time ---------------------------------------------------------------------------- */

static int64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Milliseconds left before `deadline` (-1: none), for poll(). */
static int remaining_ms(int64_t deadline) {
    if (deadline < 0) return -1;
    int64_t left = deadline - now_ms();
    return left < 0 ? 0 : (int)left;
}

/* ---- byte helpers -------------------------------------------------------------------- */

static void put_u32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24); p[1] = (uint8_t)(v >> 16); p[2] = (uint8_t)(v >> 8); p[3] = (uint8_t)v;
}
static void put_u16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }
static uint32_t get_u32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}
static uint16_t get_u16(const uint8_t *p) { return (uint16_t)((uint16_t)p[0] << 8 | p[1]); }

/* ---- socket I/O ---------------------------------------------------------------------- */

static streak_code fail(streak_client *c, streak_status *status, streak_code code, const char *message) {
    if (!c->closed) {
        c->closed = 1;
        set_status(&c->close_status, code, "%s", message);
        if (c->ssl != NULL) {
            SSL_free(c->ssl);
            c->ssl = NULL;
        }
        close(c->fd);
        c->fd = -1;
        free(c->rx_body);
        c->rx_body = NULL;
    }
    return set_status(status, c->close_status.code, "%s", c->close_status.message);
}

/* OpenSSL's reason for the last failure on this thread (its error queue, then cleared). */
static const char *tls_reason(void) {
    static _Thread_local char reason[160];
    unsigned long code = ERR_get_error();
    const char *text = code != 0 ? ERR_reason_error_string(code) : NULL;
    snprintf(reason, sizeof reason, "%s", text != NULL ? text : "TLS error");
    ERR_clear_error();
    return reason;
}

static streak_code send_all(streak_client *c, const uint8_t *data, size_t length, streak_status *status) {
    while (c->ssl != NULL && length > 0) {
        int chunk = length > (1u << 30) ? (1 << 30) : (int)length;
        int n = SSL_write(c->ssl, data, chunk);
        if (n <= 0) {
            char message[200];
            snprintf(message, sizeof message, "connection lost: %s", tls_reason());
            return fail(c, status, STREAK_UNAVAILABLE, message);
        }
        data += n;
        length -= (size_t)n;
    }
    while (length > 0) {
        ssize_t n = send(c->fd, data, length, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EINTR) continue;
            char message[128];
            snprintf(message, sizeof message, "connection lost: %s", strerror(errno));
            return fail(c, status, STREAK_UNAVAILABLE, message);
        }
        data += n;
        length -= (size_t)n;
    }
    return STREAK_OK;
}

/* Reads into buffer[*got ... length - 1] before `deadline`, advancing *got. Returns OK (all
 * `length` bytes there), DEADLINE_EXCEEDED (what arrived is kept in buffer and *got) or UNAVAILABLE. */
static streak_code recv_into(streak_client *c, uint8_t *buffer, size_t *got_bytes, size_t length, int64_t deadline,
                             streak_status *status) {
    size_t got = *got_bytes;
    streak_code code = STREAK_OK;
    while (got < length) {
        /* Bytes TLS already decrypted wait inside the SSL object, where poll cannot see them. */
        if (c->ssl == NULL || SSL_pending(c->ssl) == 0) {
            struct pollfd pfd = {.fd = c->fd, .events = POLLIN};
            int ready = poll(&pfd, 1, remaining_ms(deadline));
            if (ready < 0 && errno == EINTR) continue;
            if (ready == 0) {
                code = set_status(status, STREAK_DEADLINE_EXCEEDED, "deadline exceeded (client)");
                break;
            }
        }
        if (c->ssl != NULL) {
            size_t want = length - got;
            int n = SSL_read(c->ssl, buffer + got, want > (1u << 30) ? (1 << 30) : (int)want);
            if (n > 0) {
                got += (size_t)n;
                continue;
            }
            int error = SSL_get_error(c->ssl, n);
            if (error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE) continue;
            const char *message = error == SSL_ERROR_ZERO_RETURN ? "server closed the connection" : tls_reason();
            if (error == SSL_ERROR_SYSCALL && ERR_peek_error() == 0) message = "server closed the connection";
            code = fail(c, status, STREAK_UNAVAILABLE, message);
            break;
        }
        ssize_t n = recv(c->fd, buffer + got, length - got, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            const char *message = n == 0 ? "server closed the connection" : strerror(errno);
            code = fail(c, status, STREAK_UNAVAILABLE, message);
            break;
        }
        got += (size_t)n;
    }
    *got_bytes = got;
    return code;
}

/* Reads exactly `length` bytes before `deadline` (what arrived before a deadline is lost: for the
 * preface only). Returns OK, DEADLINE_EXCEEDED or UNAVAILABLE. */
static streak_code recv_exact(streak_client *c, uint8_t *buffer, size_t length, int64_t deadline,
                              streak_status *status) {
    size_t got = 0;
    return recv_into(c, buffer, &got, length, deadline, status);
}

typedef struct {
    uint8_t kind;
    uint32_t request_id;
    uint8_t *body;
    size_t body_length;
} frame;

static streak_code send_frame(streak_client *c, uint8_t kind, uint32_t request_id, const uint8_t *body,
                              size_t body_length, streak_status *status) {
    uint8_t header[9];
    put_u32(header, (uint32_t)(5 + body_length));
    header[4] = kind;
    put_u32(header + 5, request_id);
    uint8_t *buffer = malloc(sizeof header + body_length);
    if (buffer == NULL) return set_status(status, STREAK_INTERNAL, "out of memory");
    memcpy(buffer, header, sizeof header);
    if (body_length > 0) memcpy(buffer + sizeof header, body, body_length);
    streak_code code = send_all(c, buffer, sizeof header + body_length, status);
    free(buffer);
    return code;
}

/* Reads one frame before `deadline`. A deadline that passes mid-frame returns DEADLINE_EXCEEDED
 * and keeps what arrived in the client, so that the connection stays usable: the next read
 * resumes the frame. A length under 5 or over the maximum is refused from the length alone
 * (PROTOCOL.md section 2): INTERNAL, and the connection is closed. */
static streak_code read_frame(streak_client *c, frame *out, int64_t deadline, streak_status *status) {
    streak_code code;
    if (c->rx_header_got < 4 && (code = recv_into(c, c->rx_header, &c->rx_header_got, 4, deadline, status)) != STREAK_OK) {
        return code;
    }
    uint32_t length = get_u32(c->rx_header);
    if (length < 5 || length > MAX_FRAME_SIZE) {
        char message[128];
        snprintf(message, sizeof message, "bad frame from the server: length %u is not 5...%u", (unsigned)length,
                 MAX_FRAME_SIZE);
        return fail(c, status, STREAK_INTERNAL, message);
    }
    if ((code = recv_into(c, c->rx_header, &c->rx_header_got, 9, deadline, status)) != STREAK_OK) return code;
    if (c->rx_body == NULL) {
        c->rx_body = malloc(length - 5 + 1);
        c->rx_body_got = 0;
        if (c->rx_body == NULL) return fail(c, status, STREAK_INTERNAL, "out of memory");
    }
    if ((code = recv_into(c, c->rx_body, &c->rx_body_got, length - 5, deadline, status)) != STREAK_OK) return code;
    out->kind = c->rx_header[4];
    out->request_id = get_u32(c->rx_header + 5);
    out->body = c->rx_body;
    out->body_length = length - 5;
    c->rx_body = NULL;
    c->rx_body_got = 0;
    c->rx_header_got = 0;
    return STREAK_OK;
}

/* Parses a status header; *payload_offset gets where the message bytes start. */
static int parse_status(const uint8_t *body, size_t length, streak_status *status, size_t *payload_offset) {
    if (length < 3) return -1;
    size_t message_length = get_u16(body + 1);
    if (3 + message_length > length) return -1;
    status->code = (streak_code)body[0];
    size_t copy = message_length < sizeof status->message - 1 ? message_length : sizeof status->message - 1;
    memcpy(status->message, body + 3, copy);
    status->message[copy] = '\0';
    *payload_offset = 3 + message_length;
    return 0;
}

/* ---- public API ---------------------------------------------------------------------- */

/* connect() bounded by `deadline` (-1: none): non-blocking connect, then poll for writability.
 * Returns 0, or an errno value (ETIMEDOUT when the deadline passed). The socket stays blocking
 * afterwards, as recv_exact and send_all expect (they poll before reading). */
static int connect_before(int fd, const struct sockaddr *address, socklen_t length, int64_t deadline) {
    int flags = fcntl(fd, F_GETFL, 0);
    if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0) return errno;
    int result = 0;
    if (connect(fd, address, length) != 0) {
        result = errno;
        if (result == EINPROGRESS || result == EINTR) {
            struct pollfd pfd = {.fd = fd, .events = POLLOUT};
            int ready;
            do {
                ready = poll(&pfd, 1, remaining_ms(deadline));
            } while (ready < 0 && errno == EINTR);
            if (ready == 0) {
                result = ETIMEDOUT;
            } else if (ready < 0) {
                result = errno;
            } else {
                socklen_t size = sizeof result;
                if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &result, &size) != 0) result = errno;
            }
        }
    }
    if (result == 0 && fcntl(fd, F_SETFL, flags) < 0) result = errno;
    return result;
}

static const unsigned char ALPN[] = "\x09streakd/1";

/* The verification failure in words: "certificate verify failed: hostname mismatch (...)". */
static void verify_failure(SSL *ssl, const char *name, char *out, size_t size) {
    long result = SSL_get_verify_result(ssl);
    switch (result) {
    case X509_V_ERR_HOSTNAME_MISMATCH:
    case X509_V_ERR_IP_ADDRESS_MISMATCH:
        snprintf(out, size, "certificate verify failed: hostname mismatch (the server's certificate is not for '%s')",
                 name);
        break;
    case X509_V_ERR_CERT_HAS_EXPIRED:
        snprintf(out, size, "certificate verify failed: certificate has expired");
        break;
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT:
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
    case X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
    case X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN:
    case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT:
        snprintf(out, size, "certificate verify failed: unknown CA (%s): no trusted CA signed the server's certificate",
                 X509_verify_cert_error_string(result));
        break;
    default:
        snprintf(out, size, "certificate verify failed: %s", X509_verify_cert_error_string(result));
    }
}

/* The TLS handshake on the connected socket `fd` before `deadline`. Returns the session, or
 * NULL with *status set. */
static SSL *handshake(int fd, const char *host, uint16_t port, const streak_tls_options *tls, int64_t deadline,
                      streak_status *status) {
    ERR_clear_error();
    SSL_CTX *context = SSL_CTX_new(TLS_client_method());
    if (context == NULL) {
        set_status(status, STREAK_INTERNAL, "cannot create a TLS context: %s", tls_reason());
        return NULL;
    }
    SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
    SSL_CTX_set_options(context, SSL_OP_NO_RENEGOTIATION | SSL_OP_IGNORE_UNEXPECTED_EOF);
    SSL_CTX_set_verify(context, SSL_VERIFY_PEER, NULL);
    int loaded = tls->ca_file != NULL ? SSL_CTX_load_verify_locations(context, tls->ca_file, NULL)
                                      : SSL_CTX_set_default_verify_paths(context);
    if (loaded != 1) {
        set_status(status, STREAK_INVALID_ARGUMENT, "cannot load CA certificates from %s: %s",
                   tls->ca_file != NULL ? tls->ca_file : "the system store", tls_reason());
        SSL_CTX_free(context);
        return NULL;
    }
    SSL_CTX_set_alpn_protos(context, ALPN, sizeof ALPN - 1);
    SSL *ssl = SSL_new(context);
    SSL_CTX_free(context); /* the session holds its own reference */
    if (ssl == NULL || SSL_set_fd(ssl, fd) != 1) {
        set_status(status, STREAK_INTERNAL, "cannot create a TLS session: %s", tls_reason());
        SSL_free(ssl);
        return NULL;
    }
    const char *name = tls->server_name != NULL ? tls->server_name : host;
    unsigned char address[16];
    if (inet_pton(AF_INET, name, address) == 1 || inet_pton(AF_INET6, name, address) == 1) {
        X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), name); /* no SNI for an address */
    } else {
        SSL_set_tlsext_host_name(ssl, name);
        SSL_set1_host(ssl, name);
    }
    /* Non-blocking for the handshake, so that the deadline holds; blocking again afterwards. */
    int flags = fcntl(fd, F_GETFL, 0);
    fcntl(fd, F_SETFL, flags | O_NONBLOCK);
    for (;;) {
        int result = SSL_connect(ssl);
        if (result == 1) break;
        int error = SSL_get_error(ssl, result);
        if (error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE) {
            struct pollfd pfd = {.fd = fd, .events = error == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT};
            int ready = poll(&pfd, 1, remaining_ms(deadline));
            if (ready < 0 && errno == EINTR) continue;
            if (ready == 0) {
                set_status(status, STREAK_UNAVAILABLE, "cannot connect to %s:%u over TLS: the handshake timed out", host,
                           (unsigned)port);
                SSL_free(ssl);
                return NULL;
            }
            continue;
        }
        char reason[300];
        unsigned long first = ERR_peek_error();
        if (SSL_get_verify_result(ssl) != X509_V_OK && ERR_GET_REASON(first) == SSL_R_CERTIFICATE_VERIFY_FAILED) {
            verify_failure(ssl, name, reason, sizeof reason);
            ERR_clear_error();
        } else if (ERR_GET_REASON(first) == SSL_R_WRONG_VERSION_NUMBER) {
            ERR_clear_error();
            snprintf(reason, sizeof reason, "the server does not serve TLS on this port (wrong version number)");
        } else if (error == SSL_ERROR_SYSCALL && first == 0) {
            snprintf(reason, sizeof reason, "the server closed the connection during the TLS handshake");
        } else {
            snprintf(reason, sizeof reason, "%s", tls_reason());
        }
        set_status(status, STREAK_UNAVAILABLE, "cannot connect to %s:%u over TLS: %s", host, (unsigned)port, reason);
        SSL_free(ssl);
        return NULL;
    }
    fcntl(fd, F_SETFL, flags);
    return ssl;
}

const char *streak_tls_version(const streak_client *client) {
    return client != NULL && client->ssl != NULL ? SSL_get_version(client->ssl) : NULL;
}

streak_client *streak_connect(const char *host, uint16_t port, int timeout_ms, streak_status *status) {
    return streak_connect_tls(host, port, timeout_ms, NULL, status);
}

streak_client *streak_connect_tls(const char *host, uint16_t port, int timeout_ms, const streak_tls_options *tls,
                                  streak_status *status) {
    char port_text[8];
    snprintf(port_text, sizeof port_text, "%u", (unsigned)port);
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM};
    struct addrinfo *addresses = NULL;
    int rc = getaddrinfo(host, port_text, &hints, &addresses);
    if (rc != 0) {
        set_status(status, STREAK_UNAVAILABLE, "cannot resolve %s: %s", host, gai_strerror(rc));
        return NULL;
    }
    /* One deadline for connecting (every address) and the server's preface. */
    int64_t deadline = timeout_ms > 0 ? now_ms() + timeout_ms : -1;
    int fd = -1;
    int saved_errno = 0;
    for (struct addrinfo *a = addresses; a != NULL && fd < 0; a = a->ai_next) {
        fd = socket(a->ai_family, a->ai_socktype, a->ai_protocol);
        if (fd < 0) { saved_errno = errno; continue; }
        if ((saved_errno = connect_before(fd, a->ai_addr, a->ai_addrlen, deadline)) != 0) {
            close(fd);
            fd = -1;
            if (saved_errno == ETIMEDOUT) break;
        }
    }
    freeaddrinfo(addresses);
    if (fd < 0) {
        if (saved_errno == ETIMEDOUT) {
            set_status(status, STREAK_UNAVAILABLE, "cannot connect to %s:%u: timed out after %d ms", host,
                       (unsigned)port, timeout_ms);
        } else {
            set_status(status, STREAK_UNAVAILABLE, "cannot connect to %s:%u: %s", host, (unsigned)port,
                       strerror(saved_errno));
        }
        return NULL;
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    streak_client *c = calloc(1, sizeof *c);
    if (c == NULL) {
        close(fd);
        set_status(status, STREAK_INTERNAL, "out of memory");
        return NULL;
    }
    c->fd = fd;
    c->next_id = 1;
    if (tls != NULL && (c->ssl = handshake(fd, host, port, tls, deadline, status)) == NULL) goto failed;
    if (send_all(c, PREFACE, sizeof PREFACE, status) != STREAK_OK) goto failed;
    /* streakd answers with the same 8 bytes, even when it refuses ours (PROTOCOL.md section 1: the
     * GOAWAY follows the preface and the first call reports it). A GOAWAY in place of the preface
     * is understood too, for peers that skip it. */
    uint8_t answer[8];
    streak_code code = recv_exact(c, answer, sizeof answer, deadline, status);
    if (code == STREAK_DEADLINE_EXCEEDED) goto preface_timeout;
    if (code != STREAK_OK) {
        char reason[sizeof status->message];
        snprintf(reason, sizeof reason, "%s", c->close_status.message);
        set_status(status, STREAK_UNAVAILABLE, "cannot connect to %s:%u: no Streakd preface: %s", host,
                   (unsigned)port, reason);
        goto failed;
    }
    if (memcmp(answer, PREFACE, sizeof PREFACE) == 0) return c;
    uint32_t length = get_u32(answer);
    if (answer[4] == KIND_GOAWAY && length >= 5 + 4 + 3 && length <= 5 + 4 + 3 + 65535) {
        uint8_t *rest = malloc(length - 4);
        code = rest != NULL ? recv_exact(c, rest, length - 4, deadline, status) : STREAK_INTERNAL;
        if (code == STREAK_DEADLINE_EXCEEDED) {
            free(rest);
            goto preface_timeout;
        }
        if (code == STREAK_OK) {
            /* answer[5..7] + rest: request_id (4 bytes, 3 in answer), then the GOAWAY body. */
            size_t offset = 0;
            streak_status goaway = {0};
            if (parse_status(rest + 1 + 4, length - 4 - 1 - 4, &goaway, &offset) == 0) {
                set_status(status, goaway.code, "preface refused: %s", goaway.message);
                free(rest);
                goto failed;
            }
        }
        free(rest);
    }
    set_status(status, STREAK_UNAVAILABLE, "the server did not answer with the Streakd preface");
    goto failed;
preface_timeout:
    /* As the TCP connect and the TLS handshake: UNAVAILABLE once timeout_ms passed. */
    set_status(status, STREAK_UNAVAILABLE, "cannot connect to %s:%u: timed out after %d ms waiting for the server's preface",
               host, (unsigned)port, timeout_ms);
failed:
    if (c->ssl != NULL) SSL_free(c->ssl);
    if (c->fd >= 0) close(c->fd);
    free(c);
    return NULL;
}

void streak_close(streak_client *client) {
    if (client == NULL) return;
    if (client->ssl != NULL) {
        SSL_shutdown(client->ssl); /* close_notify, best effort */
        SSL_free(client->ssl);
    }
    if (client->fd >= 0) close(client->fd);
    free(client->rx_body);
    free(client);
}

void streak_free_message(ProtobufCMessage *message) {
    if (message != NULL) protobuf_c_message_free_unpacked(message, NULL);
}

/* Sends a REQUEST frame for `method` with a new request id (*id) and fills `path` with the method's path. */
static streak_code send_request(streak_client *c, const char *method, const char *token, int deadline_ms,
                                const ProtobufCMessage *request, uint32_t *id, char *path, size_t path_size,
                                streak_status *status) {
    if (c->closed) return set_status(status, c->close_status.code, "%s", c->close_status.message);

    /* Request body: method, metadata count, entries, message. */
    /* Refused rather than cut short: a cut path or token would only fail obscurely at the server. */
    int path_length_needed = method[0] == '/' ? snprintf(path, path_size, "%s", method)
                                              : snprintf(path, path_size, SERVICE_PREFIX "%s", method);
    if (path_length_needed < 0 || (size_t)path_length_needed >= path_size) {
        return set_status(status, STREAK_INVALID_ARGUMENT, "method path too long (%d bytes; at most %zu)",
                          path_length_needed, path_size - 1);
    }
    char authorization[600] = "";
    if (token != NULL && (size_t)snprintf(authorization, sizeof authorization, "Bearer %s", token) >= sizeof authorization) {
        return set_status(status, STREAK_INVALID_ARGUMENT, "%s: token too long (%zu bytes; at most %zu)", path,
                          strlen(token), sizeof authorization - 1 - 7);
    }
    char deadline_text[16] = "";
    if (deadline_ms > 0) snprintf(deadline_text, sizeof deadline_text, "%d", deadline_ms);

    size_t message_length = protobuf_c_message_get_packed_size(request);
    size_t path_length = strlen(path), auth_length = strlen(authorization), dl_length = strlen(deadline_text);
    size_t body_length = 2 + path_length + 1 + message_length;
    if (token != NULL) body_length += 1 + 13 + 2 + auth_length;
    if (deadline_ms > 0) body_length += 1 + 11 + 2 + dl_length;
    if (body_length + 5 > MAX_FRAME_SIZE) {
        return set_status(status, STREAK_RESOURCE_EXHAUSTED, "%s: request too large (%zu bytes; the limit is %u)", path,
                          body_length + 5, MAX_FRAME_SIZE);
    }
    uint8_t *body = malloc(body_length);
    if (body == NULL) return set_status(status, STREAK_INTERNAL, "out of memory");
    uint8_t *p = body;
    put_u16(p, (uint16_t)path_length); memcpy(p + 2, path, path_length); p += 2 + path_length;
    *p++ = (uint8_t)((token != NULL) + (deadline_ms > 0));
    if (token != NULL) {
        *p++ = 13; memcpy(p, "authorization", 13); p += 13;
        put_u16(p, (uint16_t)auth_length); memcpy(p + 2, authorization, auth_length); p += 2 + auth_length;
    }
    if (deadline_ms > 0) {
        *p++ = 11; memcpy(p, "deadline-ms", 11); p += 11;
        put_u16(p, (uint16_t)dl_length); memcpy(p + 2, deadline_text, dl_length); p += 2 + dl_length;
    }
    protobuf_c_message_pack(request, p);

    *id = c->next_id;
    c->next_id = c->next_id == UINT32_MAX ? 1 : c->next_id + 1;
    streak_code code = send_frame(c, KIND_REQUEST, *id, body, body_length, status);
    free(body);
    return code;
}

/* A protocol error by the server: the connection is closed, INTERNAL. */
static streak_code protocol_error(streak_client *c, frame *f, streak_status *status, const char *format, ...) {
    char message[256];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof message, format, args);
    va_end(args);
    free(f->body);
    f->body = NULL;
    char text[300];
    snprintf(text, sizeof text, "bad frame from the server: %s", message);
    return fail(c, status, STREAK_INTERNAL, text);
}

/* The next RESPONSE, STREAM_MESSAGE or END_STREAM for request `id` (free out->body). A server
 * PING is answered, frames for other ids (late answers to cancelled calls) are dropped, and a
 * GOAWAY that excludes `id` ends the call with UNAVAILABLE. A frame that breaks PROTOCOL.md
 * section 2.1 (an unknown kind, a GOAWAY or PING of the wrong size, a request id a kind may not
 * have) closes the connection with INTERNAL. Returns DEADLINE_EXCEEDED (nothing sent) when
 * `deadline` passes first. */
static streak_code await_frame(streak_client *c, uint32_t id, int64_t deadline, frame *out, streak_status *status) {
    for (;;) {
        frame f = {0};
        streak_code code = read_frame(c, &f, deadline, status);
        if (code != STREAK_OK) return code;
        if (f.kind == KIND_PING || f.kind == KIND_PONG) {
            if (f.body_length != 8 || f.request_id != 0) {
                return protocol_error(c, &f, status, "a %s with %zu bytes and request id %u (8 bytes, id 0)",
                                      f.kind == KIND_PING ? "PING" : "PONG", f.body_length, (unsigned)f.request_id);
            }
            code = f.kind == KIND_PING ? send_frame(c, KIND_PONG, 0, f.body, f.body_length, status) : STREAK_OK;
            free(f.body);
            if (code != STREAK_OK) return code;
            continue; /* a PONG: this client sends no PING, so it answers none of ours */
        }
        if (f.kind == KIND_GOAWAY) {
            streak_status reason = {0};
            size_t offset = 0;
            if (f.request_id != 0 || f.body_length < 4 ||
                parse_status(f.body + 4, f.body_length - 4, &reason, &offset) != 0 || 4 + offset != f.body_length) {
                return protocol_error(c, &f, status, "a GOAWAY of %zu bytes (u32 last_request_id, status header, nothing after)",
                                      f.body_length);
            }
            uint32_t last = get_u32(f.body);
            free(f.body);
            if (id > last) {
                char message[sizeof reason.message + 96];
                snprintf(message, sizeof message, "server going away (%s: %s); request not processed",
                         streak_code_name(reason.code), reason.message);
                return fail(c, status, STREAK_UNAVAILABLE, message);
            }
            continue; /* it will still answer ours */
        }
        if (f.kind != KIND_RESPONSE && f.kind != KIND_STREAM_MESSAGE && f.kind != KIND_END_STREAM) {
            return protocol_error(c, &f, status, "frame kind %u", (unsigned)f.kind);
        }
        if (f.request_id != id) {
            free(f.body); /* a late answer to a cancelled call */
            continue;
        }
        *out = f;
        return STREAK_OK;
    }
}

/* The status of a RESPONSE or END_STREAM frame, into *status; *payload_offset (when wanted) gets
 * where a RESPONSE's message starts. A malformed header closes the connection (INTERNAL). */
static streak_code final_status(streak_client *c, const frame *f, size_t *payload_offset, streak_status *status) {
    size_t offset = 0;
    streak_status answer = {0};
    if (parse_status(f->body, f->body_length, &answer, &offset) != 0) {
        return fail(c, status, STREAK_INTERNAL, "malformed status header from the server");
    }
    /* An END_STREAM has nothing after its status (PROTOCOL.md section 2.1). */
    if (f->kind == KIND_END_STREAM && offset != f->body_length) {
        return fail(c, status, STREAK_INTERNAL, "bad frame from the server: bytes after an END_STREAM's status");
    }
    if (payload_offset != NULL) *payload_offset = offset;
    if (status != NULL) *status = answer;
    return answer.code;
}

streak_code streak_call(streak_client *c, const char *method, const char *token, int deadline_ms,
                        const ProtobufCMessage *request, const ProtobufCMessageDescriptor *response_type,
                        ProtobufCMessage **response, streak_status *status) {
    if (response != NULL) *response = NULL;
    if (c == NULL || method == NULL || request == NULL || response_type == NULL || response == NULL) {
        return set_status(status, STREAK_INVALID_ARGUMENT, "streak_call: missing argument");
    }
    char reason[160];
    if (streak_check_request_names(request, reason, sizeof reason) != 0) {
        return set_status(status, STREAK_INVALID_ARGUMENT, "%s: %s", method, reason);
    }
    char path[256];
    uint32_t id = 0;
    int64_t deadline = deadline_ms > 0 ? now_ms() + deadline_ms : -1;
    streak_code code = send_request(c, method, token, deadline_ms, request, &id, path, sizeof path, status);
    if (code != STREAK_OK) return code;

    for (;;) {
        frame f = {0};
        code = await_frame(c, id, deadline, &f, status);
        if (code == STREAK_DEADLINE_EXCEEDED && !c->closed) {
            send_frame(c, KIND_CANCEL, id, NULL, 0, NULL);
            return set_status(status, STREAK_DEADLINE_EXCEEDED, "%s: deadline exceeded (client)", path);
        }
        if (code != STREAK_OK) return code;
        if (f.kind != KIND_RESPONSE) {
            /* A unary method gets exactly one RESPONSE (PROTOCOL.md section 2). */
            const char *kind = f.kind == KIND_STREAM_MESSAGE ? "STREAM_MESSAGE" : "END_STREAM";
            free(f.body);
            char message[320];
            snprintf(message, sizeof message, "bad frame from the server: a %s for the unary call %s", kind, path);
            return fail(c, status, STREAK_INTERNAL, message);
        }
        size_t offset = 0;
        code = final_status(c, &f, &offset, status);
        if (code != STREAK_OK) {
            free(f.body);
            return code;
        }
        *response = protobuf_c_message_unpack(response_type, NULL, f.body_length - offset, f.body + offset);
        free(f.body);
        if (*response == NULL) return set_status(status, STREAK_INTERNAL, "%s: response does not parse", path);
        return set_status(status, STREAK_OK, "");
    }
}

/* After CANCEL: reads (and drops) what is left of stream `id` until its final frame, for at most
 * two seconds, so that the connection is clean for the next call. */
static void drain_stream(streak_client *c, uint32_t id) {
    int64_t deadline = now_ms() + 2000;
    for (;;) {
        frame f = {0};
        streak_status ignored;
        if (await_frame(c, id, deadline, &f, &ignored) != STREAK_OK) return;
        int final = f.kind != KIND_STREAM_MESSAGE;
        free(f.body);
        if (final) return;
    }
}

streak_code streak_stream(streak_client *c, const char *method, const char *token, int deadline_ms,
                          const ProtobufCMessage *request, const ProtobufCMessageDescriptor *message_type,
                          streak_message_fn on_message, void *context, streak_status *status) {
    if (c == NULL || method == NULL || request == NULL || message_type == NULL || on_message == NULL) {
        return set_status(status, STREAK_INVALID_ARGUMENT, "streak_stream: missing argument");
    }
    char path[256];
    uint32_t id = 0;
    int64_t deadline = deadline_ms > 0 ? now_ms() + deadline_ms : -1;
    streak_code code = send_request(c, method, token, deadline_ms, request, &id, path, sizeof path, status);
    if (code != STREAK_OK) return code;

    for (;;) {
        frame f = {0};
        code = await_frame(c, id, deadline, &f, status);
        if (code == STREAK_DEADLINE_EXCEEDED && !c->closed) {
            send_frame(c, KIND_CANCEL, id, NULL, 0, NULL);
            drain_stream(c, id);
            return set_status(status, STREAK_DEADLINE_EXCEEDED, "%s: deadline exceeded (client)", path);
        }
        if (code != STREAK_OK) return code;
        if (f.kind == KIND_STREAM_MESSAGE) {
            ProtobufCMessage *message = protobuf_c_message_unpack(message_type, NULL, f.body_length, f.body);
            free(f.body);
            int stop = 1;
            if (message != NULL) {
                stop = on_message(message, context);
                protobuf_c_message_free_unpacked(message, NULL);
            }
            if (stop) {
                if (!c->closed && send_frame(c, KIND_CANCEL, id, NULL, 0, NULL) == STREAK_OK) drain_stream(c, id);
                if (message == NULL) return set_status(status, STREAK_INTERNAL, "%s: stream message does not parse", path);
                return set_status(status, STREAK_CANCELLED, "%s: stopped by the caller", path);
            }
            continue;
        }
        /* END_STREAM, or a RESPONSE (a request refused before its stream began, e.g. UNIMPLEMENTED). */
        code = final_status(c, &f, NULL, status);
        free(f.body);
        return code;
    }
}
