/* The examples' connection options and environment: see example-options.h. */
#include "example-options.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_SERVER "127.0.0.1:7411"

void example_options_init(example_options *o, const char *name, const char *synopsis, const char *more) {
    memset(o, 0, sizeof *o);
    o->name = name;
    o->synopsis = synopsis != NULL ? synopsis : "";
    o->more = more;
}

static void print_usage(const example_options *o, FILE *to) {
    fprintf(to,
            "usage: %s [--server HOST:PORT] [--token TOKEN | --token-file FILE] [--tls] [--ca-file FILE]\n"
            "       %*s [--tls-server-name NAME] [--insecure-plaintext]%s%s\n",
            o->name, (int)strlen(o->name), "", o->synopsis[0] != '\0' ? " " : "", o->synopsis);
    if (o->more != NULL) fputs(o->more, to);
}

void example_usage(const example_options *o, const char *format, ...) {
    if (format != NULL) {
        va_list args;
        va_start(args, format);
        fprintf(stderr, "%s: ", o->name);
        vfprintf(stderr, format, args);
        fputc('\n', stderr);
        va_end(args);
    }
    print_usage(o, stderr);
    exit(EXAMPLE_USAGE_ERROR);
}

void example_unknown(const example_options *o, const char *argument) {
    if (argument[0] == '-') example_usage(o, "unknown option %s", argument);
    example_usage(o, "unexpected argument '%s'", argument);
}

const char *example_value(const example_options *o, int argc, char **argv, int *i) {
    if (*i + 1 >= argc) example_usage(o, "%s needs a value", argv[*i]);
    return argv[++*i];
}

int example_option(example_options *o, int argc, char **argv, int *i) {
    const char *arg = argv[*i];
    if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
        print_usage(o, stdout);
        exit(0);
    } else if (strcmp(arg, "--server") == 0) {
        o->server_arg = example_value(o, argc, argv, i);
    } else if (strcmp(arg, "--token") == 0) {
        o->token_arg = example_value(o, argc, argv, i);
    } else if (strcmp(arg, "--token-file") == 0) {
        o->token_file = example_value(o, argc, argv, i);
    } else if (strcmp(arg, "--tls") == 0) {
        o->tls_flag = 1;
    } else if (strcmp(arg, "--insecure-plaintext") == 0) {
        o->insecure_plaintext = 1;
    } else if (strcmp(arg, "--ca-file") == 0) {
        o->ca_file = example_value(o, argc, argv, i);
    } else if (strcmp(arg, "--tls-server-name") == 0) {
        o->tls_server_name = example_value(o, argc, argv, i);
    } else {
        return 0;
    }
    return 1;
}

long long example_integer(const example_options *o, const char *option, const char *text, long long min,
                          long long max) {
    char *end = NULL;
    errno = 0;
    long long value = strtoll(text, &end, 10);
    if (text[0] == '\0' || isspace((unsigned char)text[0]) || *end != '\0' || errno != 0 || value < min ||
        value > max) {
        example_usage(o, "%s must be a whole number from %lld to %lld, not '%s'", option, min, max, text);
    }
    return value;
}

void example_date(const example_options *o, const char *option, const char *text, Streak__V1__Date *out) {
    int y, m, d;
    char extra;
    /* Exactly YYYY-MM-DD: four, two and two digits (sscanf alone takes "2024-3-1" and "+99999-1-1"). */
    int shape = strlen(text) == 10 && text[4] == '-' && text[7] == '-';
    for (int i = 0; shape && i < 10; i++) shape = i == 4 || i == 7 || isdigit((unsigned char)text[i]);
    if (!shape || sscanf(text, "%d-%d-%d%c", &y, &m, &d, &extra) != 3) {
        example_usage(o, "%s must be a date, YYYY-MM-DD, not '%s'", option, text);
    }
    streak__v1__date__init(out);
    out->year = y;
    out->month = m;
    out->day = d;
}

int example_read_token_file(const example_options *o, const char *path, char *buffer, size_t size) {
    FILE *file = fopen(path, "r");
    if (file == NULL) {
        fprintf(stderr, "%s: cannot read the token file %s: %s\n", o->name, path, strerror(errno));
        return -1;
    }
    size_t n = fread(buffer, 1, size - 1, file);
    int error = ferror(file) ? errno : 0;
    int more = n == size - 1 && fgetc(file) != EOF;
    fclose(file);
    const char *reason = error != 0 ? strerror(error) : more ? "longer than a token" : NULL;
    buffer[n] = '\0';
    while (n > 0 && isspace((unsigned char)buffer[n - 1])) buffer[--n] = '\0';
    size_t start = 0;
    while (start < n && isspace((unsigned char)buffer[start])) start++;
    memmove(buffer, buffer + start, n - start + 1);
    if (reason == NULL && buffer[0] == '\0') reason = "it is empty";
    if (reason == NULL && strlen(buffer) != n - start) reason = "not text (a NUL byte)";
    if (reason != NULL) {
        fprintf(stderr, "%s: cannot read the token file %s: %s\n", o->name, path, reason);
        return -1;
    }
    return 0;
}

/* $NAME, or NULL when unset or empty. */
static const char *environment(const char *name) {
    const char *value = getenv(name);
    return value != NULL && value[0] != '\0' ? value : NULL;
}

/* The token file a local streakd writes: $STREAKD_DATA_DIR/token, else
 * $XDG_DATA_HOME/streakd/token, else $HOME/.local/share/streakd/token. 0, or -1 without $HOME. */
static int local_token_file(char *path, size_t size) {
    const char *directory = environment("STREAKD_DATA_DIR");
    const char *xdg = environment("XDG_DATA_HOME"), *home = environment("HOME");
    int n;
    if (directory != NULL) n = snprintf(path, size, "%s/token", directory);
    else if (xdg != NULL) n = snprintf(path, size, "%s/streakd/token", xdg);
    else if (home != NULL) n = snprintf(path, size, "%s/.local/share/streakd/token", home);
    else return -1;
    return n > 0 && (size_t)n < size ? 0 : -1;
}

/* $STREAK_TLS: 1 (true, yes, on) or 0 (false, no, off), any case, white space around ignored;
 * unset or empty is 0. A usage error otherwise. */
static int tls_from_environment(const example_options *o) {
    const char *value = getenv("STREAK_TLS");
    if (value == NULL) return 0;
    char text[16];
    size_t n = 0;
    while (isspace((unsigned char)*value)) value++;
    for (; value[n] != '\0' && n < sizeof text - 1; n++) text[n] = (char)tolower((unsigned char)value[n]);
    while (n > 0 && isspace((unsigned char)text[n - 1])) n--;
    text[n] = '\0';
    static const char *const on[] = {"1", "true", "yes", "on"}, *const off[] = {"", "0", "false", "no", "off"};
    for (size_t k = 0; k < sizeof on / sizeof on[0]; k++) {
        if (strcmp(text, on[k]) == 0) return 1;
    }
    for (size_t k = 0; k < sizeof off / sizeof off[0]; k++) {
        if (strcmp(text, off[k]) == 0) return 0;
    }
    example_usage(o, "STREAK_TLS must be 1 or 0, not '%s'", getenv("STREAK_TLS"));
}

void example_options_finish(example_options *o) {
    /* The server. */
    o->server = o->server_arg != NULL ? o->server_arg : environment("STREAK_SERVER");
    if (o->server == NULL) o->server = DEFAULT_SERVER;
    if (streak_parse_address(o->server, o->host, sizeof o->host, &o->port) != 0) {
        example_usage(o, "not HOST:PORT: '%s'%s", o->server, o->server_arg != NULL ? "" : " (from $STREAK_SERVER)");
    }
    /* TLS. */
    o->use_tls = tls_from_environment(o) || o->tls_flag || o->ca_file != NULL || o->tls_server_name != NULL;
    o->tls.ca_file = o->ca_file != NULL ? o->ca_file : o->use_tls ? environment("STREAK_CA_FILE") : NULL;
    o->tls.server_name = o->tls_server_name;
    /* The token. */
    if (o->token_arg != NULL && o->token_file != NULL) {
        example_usage(o, "--token and --token-file exclude each other");
    }
    if (o->token_arg != NULL) {
        if (o->token_arg[0] == '\0') {
            example_usage(o, "--token is empty (leave it out for $STREAK_TOKEN or the local token file)");
        }
        o->token = o->token_arg;
    } else if (o->token_file != NULL) {
        if (example_read_token_file(o, o->token_file, o->token_buffer, sizeof o->token_buffer) != 0) exit(1);
        o->token = o->token_buffer;
    } else if ((o->token = environment("STREAK_TOKEN")) == NULL) {
        char path[4096];
        /* The local token file is this machine's user's: never sent to another machine's server. */
        if (!streak_is_loopback(o->host)) {
            fprintf(stderr,
                    "%s: no token: give --token or --token-file, or set $STREAK_TOKEN (the local token file "
                    "is read only for a server on this machine)\n", o->name);
            exit(1);
        }
        if (local_token_file(path, sizeof path) != 0) {
            fprintf(stderr, "%s: no token: give --token or --token-file, or set $STREAK_TOKEN\n", o->name);
            exit(1);
        }
        FILE *probe = fopen(path, "r");
        if (probe == NULL && errno == ENOENT) {
            fprintf(stderr,
                    "%s: no token: give --token or --token-file, set $STREAK_TOKEN, or start a local streakd "
                    "(it writes %s)\n", o->name, path);
            exit(1);
        }
        if (probe != NULL) fclose(probe);
        if (example_read_token_file(o, path, o->token_buffer, sizeof o->token_buffer) != 0) exit(1);
        o->token = o->token_buffer;
    }
    /* Anyone on the way could read a token sent in clear to another machine and act as its user. */
    if (!o->use_tls && !streak_is_loopback(o->host) && !o->insecure_plaintext) {
        example_usage(o,
                      "refusing to send the token in clear to %s, which is not a loopback address: use --tls "
                      "(or $STREAK_TLS=1), or --insecure-plaintext to send it unencrypted anyway", o->server);
    }
}

streak_client *example_connect(const example_options *o, int timeout_ms, streak_status *status) {
    return streak_connect_tls(o->host, o->port, timeout_ms, o->use_tls ? &o->tls : NULL, status);
}
