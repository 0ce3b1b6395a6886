/* The connection options every example takes, parsed in one place (examples/example-options.c,
 * compiled into each example by the Makefile; not part of libstreakclient).
 *
 *   --server HOST:PORT       default: $STREAK_SERVER, else 127.0.0.1:7411
 *   --token TOKEN            default: $STREAK_TOKEN, else the token file a local streakd writes
 *   --token-file FILE        ($STREAKD_DATA_DIR/token, $XDG_DATA_HOME/streakd/token or
 *                            ~/.local/share/streakd/token); --token and --token-file exclude
 *                            each other
 *   --tls                    TLS, verified against the system store; also $STREAK_TLS=1
 *   --ca-file FILE           the CA certificates to trust (PEM); implies --tls; with TLS on and
 *                            no --ca-file, $STREAK_CA_FILE
 *   --tls-server-name NAME   the name the certificate must be for (default: the host); implies --tls
 *   --insecure-plaintext     send the token without TLS to a server that is not on a loopback
 *                            address (refused otherwise: anyone on the way could read it)
 *   --help, -h               the usage, on stdout; exit 0
 *
 * A usage error (a missing value, an unknown option, a bad HOST:PORT or $STREAK_TLS, an example's
 * own bad argument, a token that would go in clear to another machine) prints "NAME: what is
 * wrong" and the usage, and exits 64 (EX_USAGE). The local token file is read only for a server
 * on a loopback address. A token
 * file that cannot be read, or no token at all, prints the reason and exits 1.
 *
 * An example's main:
 *
 *     example_options o;
 *     example_options_init(&o, "streak-example", "[--habit NAME]", NULL);
 *     for (int i = 1; i < argc; i++) {
 *         if (example_option(&o, argc, argv, &i)) continue;
 *         if (strcmp(argv[i], "--habit") == 0) habit = example_value(&o, argc, argv, &i);
 *         else example_unknown(&o, argv[i]);
 *     }
 *     example_options_finish(&o);
 *     streak_client *client = example_connect(&o, 5000, &status);
 *     ... streak_call(client, ..., o.token, ...);
 */
#ifndef EXAMPLE_OPTIONS_H
#define EXAMPLE_OPTIONS_H

#include <stdint.h>

#include "streakclient.h"

#define EXAMPLE_USAGE_ERROR 64

typedef struct {
    /* Set by example_options_init. */
    const char *name;     /* the example's name, on every message and the usage line */
    const char *synopsis; /* the example's own options, after the common ones on the usage line */
    const char *more;     /* further usage lines (each ending in '\n'), or NULL */
    /* Set by example_option, from the command line. */
    const char *server_arg, *token_arg, *token_file;
    int tls_flag, insecure_plaintext;
    const char *ca_file, *tls_server_name;
    /* Set by example_options_finish. */
    const char *server;     /* HOST:PORT */
    char host[256];
    uint16_t port;
    const char *token;      /* never NULL after example_options_finish */
    int use_tls;
    streak_tls_options tls; /* used when use_tls */
    char token_buffer[1024];
} example_options;

void example_options_init(example_options *o, const char *name, const char *synopsis, const char *more);

/* When argv[*i] is a common option: takes it (and its value: *i moves past it) and returns 1;
 * --help prints the usage and exits 0. Returns 0 for any other argument. */
int example_option(example_options *o, int argc, char **argv, int *i);

/* The value of the option argv[*i] (*i moves to it), or a usage error when there is none. */
const char *example_value(const example_options *o, int argc, char **argv, int *i);

/* The usage error for an argument the example does not take. */
_Noreturn void example_unknown(const example_options *o, const char *argument);

/* Prints "NAME: <message>" (printf-style; NULL: none) and the usage on stderr; exits 64. */
_Noreturn void example_usage(const example_options *o, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

/* Parses an integer in [min, max] for `option`, or a usage error. */
long long example_integer(const example_options *o, const char *option, const char *text, long long min,
                          long long max);

/* Parses YYYY-MM-DD for `option` into *out, or a usage error. */
void example_date(const example_options *o, const char *option, const char *text, Streak__V1__Date *out);

/* Reads a token from `path` into buffer (surrounding white space removed). Returns 0, or -1 after
 * printing "NAME: cannot read the token file PATH: REASON" (missing, unreadable, empty, too long). */
int example_read_token_file(const example_options *o, const char *path, char *buffer, size_t size);

/* Applies the environment and the defaults: the server address, the token and TLS (see above).
 * Exits 64 on a usage error, 1 when there is no token. */
void example_options_finish(example_options *o);

/* streak_connect_tls with the options (TLS or not); timeout_ms as there. */
streak_client *example_connect(const example_options *o, int timeout_ms, streak_status *status);

#endif /* EXAMPLE_OPTIONS_H */
