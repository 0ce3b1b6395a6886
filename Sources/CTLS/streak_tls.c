#include "streak_tls.h"

#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

_Static_assert(STREAK_TLS_VERIFY_CERT_HAS_EXPIRED == X509_V_ERR_CERT_HAS_EXPIRED, "X509_V_ERR values");
_Static_assert(STREAK_TLS_VERIFY_HOSTNAME_MISMATCH == X509_V_ERR_HOSTNAME_MISMATCH, "X509_V_ERR values");
_Static_assert(STREAK_TLS_VERIFY_IP_ADDRESS_MISMATCH == X509_V_ERR_IP_ADDRESS_MISMATCH, "X509_V_ERR values");
_Static_assert(STREAK_TLS_VERIFY_UNABLE_TO_GET_ISSUER_CERT_LOCALLY == X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY,
               "X509_V_ERR values");
_Static_assert(STREAK_TLS_VERIFY_SELF_SIGNED_CERT_IN_CHAIN == X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN,
               "X509_V_ERR values");
_Static_assert(STREAK_TLS_VERIFY_DEPTH_ZERO_SELF_SIGNED_CERT == X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT,
               "X509_V_ERR values");

struct streak_tls {
    SSL *ssl;
    /// Ciphertext from the peer, which OpenSSL reads (owned by `ssl`).
    BIO *input;
    /// Ciphertext for the peer, which OpenSSL writes (owned by `ssl`).
    BIO *output;
    int close_notify_sent;
    char error[256];
};

/// "streakd/1" in ALPN's wire form: a length byte, then the name.
static const unsigned char alpn_protocols[] = "\x09streakd/1";

/// The reason of the oldest error on OpenSSL's (thread-local) queue, which names the cause
/// rather than the calls it went through; the queue is cleared.
static void queue_reason(char *out, size_t size, const char *fallback) {
    unsigned long code = ERR_get_error();
    const char *reason = code != 0 ? ERR_reason_error_string(code) : NULL;
    if (code != 0 && ERR_GET_LIB(code) == ERR_LIB_SYS) {
        reason = strerror(ERR_GET_REASON(code));
    }
    snprintf(out, size, "%s", reason != NULL ? reason : fallback);
    ERR_clear_error();
}

static void fail_with(char *error, size_t size, const char *what, const char *file) {
    char reason[160];
    queue_reason(reason, sizeof reason, "unknown error");
    if (error != NULL && size > 0) {
        snprintf(error, size, "%s %s: %s", what, file, reason);
    }
}

static SSL_CTX *new_context(const SSL_METHOD *method, char *error, size_t size) {
    SSL_CTX *context = SSL_CTX_new(method);
    if (context == NULL) {
        fail_with(error, size, "cannot create a TLS context", "(OpenSSL)");
        return NULL;
    }
    SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
    // No renegotiation (TLS 1.2), and a peer that closes without close_notify is an end of
    // stream like any other: the frames say when a conversation is complete, not TLS.
    SSL_CTX_set_options(context, SSL_OP_NO_RENEGOTIATION | SSL_OP_IGNORE_UNEXPECTED_EOF);
    // Buffers are released while a session is idle: thousands of idle connections stay cheap.
    SSL_CTX_set_mode(context, SSL_MODE_RELEASE_BUFFERS);
    return context;
}

static int select_alpn(SSL *ssl, const unsigned char **out, unsigned char *out_length, const unsigned char *offered,
                       unsigned int offered_length, void *argument) {
    (void)ssl;
    (void)argument;
    unsigned char *selected = NULL;
    if (SSL_select_next_proto(&selected, out_length, alpn_protocols, sizeof alpn_protocols - 1, offered,
                              offered_length) == OPENSSL_NPN_NEGOTIATED) {
        *out = selected;
        return SSL_TLSEXT_ERR_OK;
    }
    // A client that offers protocols, none of them ours, speaks something else (RFC 7301).
    return SSL_TLSEXT_ERR_ALERT_FATAL;
}

/// OpenSSL's passphrase callback for keys: there is no one to ask. Without a callback of our own,
/// OpenSSL prompts on the controlling terminal and waits, which would block the reload on SIGHUP
/// (and with it the handling of SIGTERM) for as long as nobody types.
static int refuse_passphrase(char *buffer, int size, int writing, void *asked) {
    (void)buffer;
    (void)size;
    (void)writing;
    if (asked != NULL) {
        *(int *)asked = 1;
    }
    return 0;
}

streak_tls_context *streak_tls_server_context(const char *certificate_file, const char *key_file, char *error,
                                              size_t error_size) {
    ERR_clear_error();
    SSL_CTX *context = new_context(TLS_server_method(), error, error_size);
    if (context == NULL) {
        return NULL;
    }
    if (SSL_CTX_use_certificate_chain_file(context, certificate_file) != 1) {
        fail_with(error, error_size, "cannot load the certificate chain from", certificate_file);
        SSL_CTX_free(context);
        return NULL;
    }
    int asked = 0;
    SSL_CTX_set_default_passwd_cb(context, refuse_passphrase);
    SSL_CTX_set_default_passwd_cb_userdata(context, &asked);
    int key_loaded = SSL_CTX_use_PrivateKey_file(context, key_file, SSL_FILETYPE_PEM) == 1;
    SSL_CTX_set_default_passwd_cb_userdata(context, NULL);
    if (!key_loaded && asked) {
        ERR_clear_error();
        snprintf(error, error_size,
                 "the private key in %s is encrypted (it needs a passphrase, and streakd asks for none): "
                 "give it an unencrypted key, e.g. `openssl pkey -in %s -out KEY.pem`, readable only by its user",
                 key_file, key_file);
        SSL_CTX_free(context);
        return NULL;
    }
    if (!key_loaded && ERR_GET_REASON(ERR_peek_last_error()) != X509_R_KEY_VALUES_MISMATCH) {
        fail_with(error, error_size, "cannot load the private key from", key_file);
        SSL_CTX_free(context);
        return NULL;
    }
    if (!key_loaded || SSL_CTX_check_private_key(context) != 1) {
        ERR_clear_error();
        snprintf(error, error_size, "the private key in %s does not belong to the certificate in %s", key_file,
                 certificate_file);
        SSL_CTX_free(context);
        return NULL;
    }
    SSL_CTX_set_alpn_select_cb(context, select_alpn, NULL);
    // No resumption: clients keep their connections, and a session cache (or the tickets
    // TLS 1.3 sends after every handshake) would cost memory and work for each of thousands.
    SSL_CTX_set_session_cache_mode(context, SSL_SESS_CACHE_OFF);
    SSL_CTX_set_num_tickets(context, 0);
    SSL_CTX_set_options(context, SSL_OP_NO_TICKET);
    return (streak_tls_context *)context;
}

streak_tls_context *streak_tls_client_context(const char *ca_file, char *error, size_t error_size) {
    ERR_clear_error();
    SSL_CTX *context = new_context(TLS_client_method(), error, error_size);
    if (context == NULL) {
        return NULL;
    }
    SSL_CTX_set_verify(context, SSL_VERIFY_PEER, NULL);
    int loaded = ca_file != NULL ? SSL_CTX_load_verify_locations(context, ca_file, NULL)
                                 : SSL_CTX_set_default_verify_paths(context);
    if (loaded != 1) {
        fail_with(error, error_size, "cannot load CA certificates from", ca_file != NULL ? ca_file : "the system store");
        SSL_CTX_free(context);
        return NULL;
    }
    // Returns 0 on success, unlike most of OpenSSL.
    if (SSL_CTX_set_alpn_protos(context, alpn_protocols, sizeof alpn_protocols - 1) != 0) {
        fail_with(error, error_size, "cannot set ALPN", "streakd/1");
        SSL_CTX_free(context);
        return NULL;
    }
    return (streak_tls_context *)context;
}

void streak_tls_context_free(streak_tls_context *context) {
    SSL_CTX_free((SSL_CTX *)context);
}

static void append_name(char *out, size_t size, X509_NAME *name) {
    BIO *memory = BIO_new(BIO_s_mem());
    if (memory == NULL) {
        return;
    }
    X509_NAME_print_ex(memory, name, 0, XN_FLAG_RFC2253);
    char *text = NULL;
    long length = BIO_get_mem_data(memory, &text);
    size_t used = strlen(out);
    if (used < size) {
        snprintf(out + used, size - used, "%.*s", (int)length, text);
    }
    BIO_free(memory);
}

int streak_tls_context_describe(streak_tls_context *context, char *out, size_t out_size) {
    if (out_size == 0) {
        return -1;
    }
    out[0] = '\0';
    X509 *certificate = SSL_CTX_get0_certificate((SSL_CTX *)context);
    if (certificate == NULL) {
        return -1;
    }
    append_name(out, out_size, X509_get_subject_name(certificate));
    size_t used = strlen(out);
    snprintf(out + used, out_size - used, ", issued by ");
    append_name(out, out_size, X509_get_issuer_name(certificate));
    BIO *memory = BIO_new(BIO_s_mem());
    if (memory != NULL) {
        ASN1_TIME_print(memory, X509_get0_notAfter(certificate));
        char *text = NULL;
        long length = BIO_get_mem_data(memory, &text);
        used = strlen(out);
        snprintf(out + used, out_size - used, ", valid until %.*s", (int)length, text);
        BIO_free(memory);
    }
    ERR_clear_error();
    return X509_cmp_current_time(X509_get0_notAfter(certificate)) < 0 ? 1 : 0;
}

static streak_tls *new_session(streak_tls_context *context) {
    streak_tls *session = calloc(1, sizeof *session);
    if (session == NULL) {
        return NULL;
    }
    session->ssl = SSL_new((SSL_CTX *)context);
    session->input = BIO_new(BIO_s_mem());
    session->output = BIO_new(BIO_s_mem());
    if (session->ssl == NULL || session->input == NULL || session->output == NULL) {
        SSL_free(session->ssl);
        BIO_free(session->input);
        BIO_free(session->output);
        free(session);
        ERR_clear_error();
        return NULL;
    }
    // An empty input BIO means "more is coming", not the end of the stream.
    BIO_set_mem_eof_return(session->input, -1);
    BIO_set_mem_eof_return(session->output, -1);
    SSL_set_bio(session->ssl, session->input, session->output);
    return session;
}

streak_tls *streak_tls_server_session(streak_tls_context *context) {
    streak_tls *session = new_session(context);
    if (session != NULL) {
        SSL_set_accept_state(session->ssl);
    }
    return session;
}

streak_tls *streak_tls_client_session(streak_tls_context *context, const char *server_name, char *error,
                                      size_t error_size) {
    streak_tls *session = new_session(context);
    if (session == NULL) {
        snprintf(error, error_size, "cannot create a TLS session: out of memory");
        return NULL;
    }
    SSL_set_connect_state(session->ssl);
    if (server_name != NULL && server_name[0] != '\0') {
        unsigned char address[16];
        int is_address =
            inet_pton(AF_INET, server_name, address) == 1 || inet_pton(AF_INET6, server_name, address) == 1;
        X509_VERIFY_PARAM *parameters = SSL_get0_param(session->ssl);
        int ok;
        if (is_address) {
            // SNI carries host names only; an address is checked against the IP addresses.
            ok = X509_VERIFY_PARAM_set1_ip_asc(parameters, server_name);
        } else {
            X509_VERIFY_PARAM_set_hostflags(parameters, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
            ok = SSL_set_tlsext_host_name(session->ssl, server_name) == 1 && SSL_set1_host(session->ssl, server_name) == 1;
        }
        if (!ok) {
            fail_with(error, error_size, "cannot check the server's certificate for", server_name);
            streak_tls_session_free(session);
            return NULL;
        }
    }
    return session;
}

void streak_tls_session_free(streak_tls *session) {
    if (session == NULL) {
        return;
    }
    SSL_free(session->ssl);  // and both BIOs
    free(session);
}

int streak_tls_feed(streak_tls *session, const void *bytes, size_t count) {
    const char *cursor = bytes;
    while (count > 0) {
        int chunk = count > INT_MAX ? INT_MAX : (int)count;
        int written = BIO_write(session->input, cursor, chunk);
        if (written <= 0) {
            ERR_clear_error();
            return 0;
        }
        cursor += written;
        count -= (size_t)written;
    }
    return 1;
}

/// Maps a result of SSL_do_handshake, SSL_read or SSL_write to a status, and records why on failure.
static int status_of(streak_tls *session, int result) {
    int code = SSL_get_error(session->ssl, result);
    switch (code) {
    case SSL_ERROR_WANT_READ:
    case SSL_ERROR_WANT_WRITE:  // a memory BIO takes every write; listed for completeness
        ERR_clear_error();
        return STREAK_TLS_WANT_READ;
    case SSL_ERROR_ZERO_RETURN:
        ERR_clear_error();
        return STREAK_TLS_CLOSED;
    default:
        break;
    }
    long verify = SSL_get_verify_result(session->ssl);
    unsigned long first = ERR_peek_error();
    if (verify != X509_V_OK && ERR_GET_REASON(first) == SSL_R_CERTIFICATE_VERIFY_FAILED) {
        snprintf(session->error, sizeof session->error, "certificate verify failed: %s",
                 X509_verify_cert_error_string(verify));
        ERR_clear_error();
    } else if (code == SSL_ERROR_SYSCALL && first == 0) {
        snprintf(session->error, sizeof session->error, "the connection ended during the TLS handshake");
    } else {
        queue_reason(session->error, sizeof session->error, "TLS error");
    }
    return STREAK_TLS_FAILED;
}

int streak_tls_handshake(streak_tls *session) {
    int result = SSL_do_handshake(session->ssl);
    return result == 1 ? 1 : status_of(session, result);
}

int streak_tls_handshake_done(const streak_tls *session) {
    return SSL_is_init_finished(session->ssl);
}

int streak_tls_read(streak_tls *session, void *buffer, size_t capacity) {
    int result = SSL_read(session->ssl, buffer, capacity > INT_MAX ? INT_MAX : (int)capacity);
    return result > 0 ? result : status_of(session, result);
}

int streak_tls_has_buffered_input(const streak_tls *session) {
    return SSL_pending(session->ssl) > 0;
}

int streak_tls_write(streak_tls *session, const void *bytes, size_t count) {
    if (count == 0) {
        return 0;
    }
    int chunk = count > (1 << 30) ? (1 << 30) : (int)count;
    int result = SSL_write(session->ssl, bytes, chunk);
    return result > 0 ? result : status_of(session, result);
}

void streak_tls_close_notify(streak_tls *session) {
    if (session->close_notify_sent || !SSL_is_init_finished(session->ssl)) {
        return;
    }
    session->close_notify_sent = 1;
    SSL_shutdown(session->ssl);
    ERR_clear_error();
}

size_t streak_tls_pending_output(const streak_tls *session) {
    return BIO_ctrl_pending(session->output);
}

size_t streak_tls_take_output(streak_tls *session, void *buffer, size_t capacity) {
    int chunk = capacity > INT_MAX ? INT_MAX : (int)capacity;
    int read = chunk > 0 ? BIO_read(session->output, buffer, chunk) : 0;
    return read > 0 ? (size_t)read : 0;
}

long streak_tls_send_output(streak_tls *session, int fd) {
    for (;;) {
        char *data = NULL;
        long length = BIO_get_mem_data(session->output, &data);
        if (length <= 0) {
            return 0;
        }
        ssize_t sent = send(fd, data, (size_t)length, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (sent < 0) {
            if (errno == EINTR) {
                continue;
            }
            if (errno == EAGAIN || errno == EWOULDBLOCK) {
                return length;
            }
            return -1;
        }
        // Drop what was sent from the BIO (a memory BIO has no cheaper way to advance).
        char scratch[16384];
        while (sent > 0) {
            int chunk = sent > (ssize_t)sizeof scratch ? (int)sizeof scratch : (int)sent;
            int dropped = BIO_read(session->output, scratch, chunk);
            if (dropped <= 0) {
                return -1;
            }
            sent -= dropped;
        }
    }
}

const char *streak_tls_error(const streak_tls *session) {
    return session->error;
}

long streak_tls_verify_result(const streak_tls *session) {
    return SSL_get_verify_result(session->ssl);
}

const char *streak_tls_verify_text(long result) {
    return X509_verify_cert_error_string(result);
}

const char *streak_tls_protocol(const streak_tls *session) {
    return SSL_get_version(session->ssl);
}

const char *streak_tls_cipher(const streak_tls *session) {
    return SSL_get_cipher_name(session->ssl);
}

size_t streak_tls_alpn(const streak_tls *session, char *out, size_t out_size) {
    const unsigned char *name = NULL;
    unsigned int length = 0;
    SSL_get0_alpn_selected(session->ssl, &name, &length);
    if (out_size == 0) {
        return 0;
    }
    size_t copied = length < out_size - 1 ? length : out_size - 1;
    if (copied > 0) {
        memcpy(out, name, copied);
    }
    out[copied] = '\0';
    return copied;
}
