// The floor: the least a server can spend per request on this machine, for scripts/bench.
//
// A single-threaded epoll server that speaks just enough of the Streakd protocol for
// `streak-load run` (the preface, REQUEST frames in, RESPONSE frames out) and does no real
// work: it answers ListHabits with five habits (ids 1 to 5) and every other request with a
// canned OK answer of the size the real one has. One recv and one send per request, like
// streakd's event loop. Its CPU time per request is what the kernel's loopback TCP, the
// wake-ups and epoll cost here, which no server can go below:
//
//     cc -O2 -o floor-server scripts/floor-server.c -lsqlite3
//     floor-server read ANSWER_BYTES              a cached read (GetHeatmap packed: 496)
//     floor-server write ANSWER_BYTES DATABASE    a durable write (RecordCompletion: 73)
//
// In write mode every request other than ListHabits also inserts or deletes one row of a
// SQLite table (write-ahead log, synchronous=FULL), and the requests read in one wake-up are one
// transaction, committed before any of their answers is sent: group commit with no thread
// hand-off, SQLite's least CPU per durable row. The commit blocks the only thread, so the write
// floor's requests per second and latency say nothing; its CPU time per request is the point.
//
// It listens on an ephemeral port of 127.0.0.1 and prints `floor listening on 127.0.0.1:PORT`.
// Not part of the product: no authentication, no error answers; frames other than REQUEST are
// skipped, and a connection that sends a frame over 64 KiB is closed.
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

enum { buffer_size = 1 << 16, max_events = 64 };

typedef struct {
    int fd;
    int greeted;                  // the client's 8-byte preface was read and ours sent
    size_t unread;                // bytes in `in` not yet parsed
    size_t pending;               // bytes in `out` to send after this wake-up
    unsigned char in[buffer_size];
    unsigned char out[buffer_size];
} connection;

static unsigned char list_answer[64], canned_answer[buffer_size / 4];
static size_t list_size, canned_size;
static sqlite3 *database;
static sqlite3_stmt *insert_row, *delete_row, *begin, *commit;

static unsigned read_u32(const unsigned char *p) {
    return (unsigned)p[0] << 24 | (unsigned)p[1] << 16 | (unsigned)p[2] << 8 | p[3];
}

static void run(sqlite3_stmt *statement) {
    if (sqlite3_step(statement) != SQLITE_DONE) {
        fprintf(stderr, "floor: %s\n", sqlite3_errmsg(database));
        exit(1);
    }
    sqlite3_reset(statement);
}

// ListHabits's answer: status OK (code 0, empty message), then habits 1 to 5 (field 1, each a
// Habit with only its id).
static void make_answers(size_t canned) {
    size_t n = 0;
    list_answer[n++] = 0, list_answer[n++] = 0, list_answer[n++] = 0;
    for (unsigned char id = 1; id <= 5; id++) {
        list_answer[n++] = 0x0a, list_answer[n++] = 2, list_answer[n++] = 0x08, list_answer[n++] = id;
    }
    list_size = n;
    canned_size = 3 + canned;  // status OK, then `canned` bytes the load generator does not decode
    memset(canned_answer, 0x55, canned_size);
    canned_answer[0] = canned_answer[1] = canned_answer[2] = 0;
}

static void open_database(const char *path) {
    if (sqlite3_open(path, &database) != SQLITE_OK) {
        fprintf(stderr, "floor: cannot open %s\n", path);
        exit(1);
    }
    const char *setup = "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;"
                        "CREATE TABLE IF NOT EXISTS completion(user INTEGER, habit INTEGER, day INTEGER,"
                        " PRIMARY KEY(user, habit, day)) WITHOUT ROWID;";
    sqlite3_exec(database, setup, 0, 0, 0);
    sqlite3_prepare_v2(database, "INSERT OR IGNORE INTO completion VALUES(?, ?, ?)", -1, &insert_row, 0);
    sqlite3_prepare_v2(database, "DELETE FROM completion WHERE user = ? AND habit = ? AND day = ?", -1, &delete_row, 0);
    sqlite3_prepare_v2(database, "BEGIN", -1, &begin, 0);
    sqlite3_prepare_v2(database, "COMMIT", -1, &commit, 0);
}

// One row for the request `id` of connection `fd`: RecordCompletion inserts, RemoveCompletion
// deletes, as streak-load's write scenario alternates them.
static void write_row(int fd, unsigned id, int removes, int *in_transaction) {
    if (!*in_transaction) run(begin), *in_transaction = 1;
    sqlite3_stmt *statement = removes ? delete_row : insert_row;
    sqlite3_bind_int64(statement, 1, fd);
    sqlite3_bind_int64(statement, 2, id % 5);
    sqlite3_bind_int64(statement, 3, 20000 + (id / 2) % 366);
    run(statement);
}

// The length of the whole frame at the start of `c->in`, or 0 while it is not all read.
static size_t whole_frame(const connection *c) {
    if (c->unread < 4) return 0;
    size_t size = 4 + (size_t)read_u32(c->in);
    return c->unread >= size ? size : 0;
}

// Parses the whole frames read so far and queues an answer for each REQUEST, as many as `out`
// holds. Returns 0 when the client broke the framing, 1 otherwise.
static int answer(connection *c, int writes, int *in_transaction) {
    size_t at = 0;
    if (!c->greeted) {
        if (c->unread < 8) return 1;
        memcpy(c->out, "STREAKD\x01", 8);
        c->pending = 8, at = 8, c->greeted = 1;
    }
    while (c->unread - at >= 4) {
        unsigned length = read_u32(c->in + at);
        if (length < 5 || length > buffer_size - 4) return 0;
        if (c->unread - at - 4 < length) break;
        const unsigned char *frame = c->in + at + 4;  // kind, request id, method length, method
        if (frame[0] == 1 && length >= 7) {
            unsigned method_length = (unsigned)frame[5] << 8 | frame[6];
            if (method_length > length - 7) method_length = length - 7;
            const char *method = (const char *)frame + 7;
            int lists = memmem(method, method_length, "ListHabits", 10) != NULL;
            const unsigned char *body = lists ? list_answer : canned_answer;
            size_t size = lists ? list_size : canned_size;
            if (c->pending + 9 + size > buffer_size) break;  // answered after this batch is sent
            if (writes && !lists) {
                write_row(c->fd, read_u32(frame + 1), memmem(method, method_length, "Remove", 6) != NULL, in_transaction);
            }
            unsigned char *out = c->out + c->pending;
            unsigned total = (unsigned)(5 + size);
            out[0] = total >> 24, out[1] = total >> 16, out[2] = total >> 8, out[3] = total;
            out[4] = 2;  // RESPONSE, with the request's id
            memcpy(out + 5, frame + 1, 4);
            memcpy(out + 9, body, size);
            c->pending += 9 + size;
        }
        at += 4 + length;
    }
    memmove(c->in, c->in + at, c->unread - at);
    c->unread -= at;
    return 1;
}

// Sends all of `c`'s queued answers, waiting for room when the socket's buffer is full.
static void send_pending(connection *c) {
    size_t sent = 0;
    while (sent < c->pending) {
        ssize_t n = send(c->fd, c->out + sent, c->pending - sent, MSG_NOSIGNAL);
        if (n > 0) {
            sent += (size_t)n;
        } else if (n < 0 && errno == EAGAIN) {
            struct pollfd room = {.fd = c->fd, .events = POLLOUT};
            poll(&room, 1, 1000);
        } else {
            break;  // the client is gone: its next recv says so
        }
    }
    c->pending = 0;
}

static void drop(int poll_fd, connection *c) {
    epoll_ctl(poll_fd, EPOLL_CTL_DEL, c->fd, 0);
    close(c->fd);
    free(c);
}

static int listen_on_loopback(void) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0), one = 1;
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t size = sizeof address;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(fd, (struct sockaddr *)&address, sizeof address) || listen(fd, 1024) ||
        getsockname(fd, (struct sockaddr *)&address, &size)) {
        perror("floor: listen");
        exit(1);
    }
    printf("floor listening on 127.0.0.1:%d\n", ntohs(address.sin_port));
    fflush(stdout);
    return fd;
}

static void accept_one(int poll, int listener) {
    int fd = accept4(listener, 0, 0, SOCK_NONBLOCK), one = 1;
    if (fd < 0) return;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    connection *c = calloc(1, sizeof *c);
    c->fd = fd;
    struct epoll_event event = {.events = EPOLLIN, .data.ptr = c};
    epoll_ctl(poll, EPOLL_CTL_ADD, fd, &event);
}

int main(int argc, char **argv) {
    int writes = argc == 4 && strcmp(argv[1], "write") == 0;
    if (!(writes || (argc == 3 && strcmp(argv[1], "read") == 0)) || atoi(argv[2]) < 0 ||
        atoi(argv[2]) > (int)sizeof canned_answer - 3) {
        fprintf(stderr, "usage: floor-server read ANSWER_BYTES | floor-server write ANSWER_BYTES DATABASE\n");
        return 64;
    }
    make_answers((size_t)atoi(argv[2]));
    if (writes) open_database(argv[3]);
    int listener = listen_on_loopback(), poll = epoll_create1(0);
    struct epoll_event event = {.events = EPOLLIN, .data.ptr = NULL}, ready[max_events];
    epoll_ctl(poll, EPOLL_CTL_ADD, listener, &event);
    connection *answered[max_events];
    for (;;) {
        int count = epoll_wait(poll, ready, max_events, -1), answering = 0, in_transaction = 0;
        if (count < 0 && errno == EINTR) continue;
        for (int i = 0; i < count; i++) {
            connection *c = ready[i].data.ptr;
            if (c == NULL) {
                accept_one(poll, listener);
                continue;
            }
            ssize_t received = recv(c->fd, c->in + c->unread, buffer_size - c->unread, 0);
            if (received <= 0) {
                drop(poll, c);
                continue;
            }
            c->unread += (size_t)received;
            if (!answer(c, writes, &in_transaction)) {
                fprintf(stderr, "floor: a frame under 5 or over %d bytes; connection closed\n", buffer_size - 4);
                drop(poll, c);
                continue;
            }
            if (c->pending) answered[answering++] = c;
        }
        if (in_transaction) run(commit), in_transaction = 0;  // durable before any answer leaves
        for (int i = 0; i < answering; i++) {
            connection *c = answered[i];
            send_pending(c);
            // Requests whose answers did not fit: one connection at a time, each a transaction.
            while (whole_frame(c) && answer(c, writes, &in_transaction) && c->pending) {
                if (in_transaction) run(commit), in_transaction = 0;
                send_pending(c);
            }
        }
    }
}
