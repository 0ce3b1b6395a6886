/* streakclient: a small synchronous C client for Streakd (docs/PROTOCOL.md) on protobuf-c.
 *
 * One connection, one call at a time (no multiplexing; not thread-safe). Messages are the
 * protobuf-c types generated from proto/ into gen/ (streak/v1/service.pb-c.h).
 *
 *   streak_status st;
 *   streak_client *c = streak_connect("127.0.0.1", 7411, 5000, &st);
 *   Streak__V1__GetStreakRequest req = STREAK__V1__GET_STREAK_REQUEST__INIT;
 *   Streak__V1__GetStreakResponse *resp = NULL;
 *   if (streak_call(c, "GetStreak", token, 5000, &req.base,
 *                   &streak__v1__get_streak_response__descriptor,
 *                   (ProtobufCMessage **)&resp, &st) != STREAK_OK)
 *       fprintf(stderr, "%s: %s\n", streak_code_name(st.code), st.message);
 *   streak_free_message((ProtobufCMessage *)resp);
 *   streak_close(c);
 */
#ifndef STREAKCLIENT_H
#define STREAKCLIENT_H

#include <stddef.h>
#include <stdint.h>

#include <protobuf-c/protobuf-c.h>

#include "streak/v1/service.pb-c.h"
#include "streak/v1/types.pb-c.h"
#include "streakpacked.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes: gRPC's numbering (PROTOCOL.md section 2). */
typedef enum {
    STREAK_OK = 0,
    STREAK_CANCELLED = 1,
    STREAK_UNKNOWN = 2,
    STREAK_INVALID_ARGUMENT = 3,
    STREAK_DEADLINE_EXCEEDED = 4,
    STREAK_NOT_FOUND = 5,
    STREAK_ALREADY_EXISTS = 6,
    STREAK_PERMISSION_DENIED = 7,
    STREAK_RESOURCE_EXHAUSTED = 8,
    STREAK_FAILED_PRECONDITION = 9,
    STREAK_ABORTED = 10,
    STREAK_OUT_OF_RANGE = 11,
    STREAK_UNIMPLEMENTED = 12,
    STREAK_INTERNAL = 13,
    STREAK_UNAVAILABLE = 14,
    STREAK_DATA_LOSS = 15,
    STREAK_UNAUTHENTICATED = 16
} streak_code;

/* The outcome of a call: the server's status, or a local failure mapped to a code
 * (connect/IO failure: UNAVAILABLE; local deadline: DEADLINE_EXCEEDED; bad bytes: INTERNAL). */
typedef struct {
    streak_code code;
    char message[512];
} streak_status;

typedef struct streak_client streak_client;

/* "OK", "NOT_FOUND", ... ("UNKNOWN_CODE" for numbers outside 0...16). */
const char *streak_code_name(int code);

/* The port a server address without one means (PROTOCOL.md; `streakd`'s default). */
#define STREAK_DEFAULT_PORT 7411

/* Splits a server address into host (NUL-terminated, at most host_size-1 bytes) and port, by the
 * rule of `streak --server`: "HOST:PORT", "HOST" (port STREAK_DEFAULT_PORT), ":PORT" (host
 * 127.0.0.1), "[IPV6]:PORT" or "[IPV6]" (host without the brackets); the port is ASCII digits,
 * 1...65535. Returns 0 on success, -1 when malformed: empty, white space anywhere, a scheme
 * ("http://"), a path, more than one ':' outside brackets, brackets that do not hold an IPv6
 * address, a bad port, or a host longer than host_size-1 bytes. */
int streak_parse_address(const char *address, char *host, size_t host_size, uint16_t *port);

/* 1 when host is this machine as written: "localhost" in any case, a dotted-quad IPv4 address in
 * 127.0.0.0/8, or the IPv6 address ::1 in any spelling; 0 otherwise (nothing is resolved: any
 * other name, "127.1" or "::ffff:127.0.0.1" counts as another machine). */
int streak_is_loopback(const char *host);

/* Connects, sends the preface and waits for the server's preface; timeout_ms > 0 bounds the
 * whole (the TCP connect included), 0 waits as long as the system does.
 * Returns NULL and fills *status on failure: UNAVAILABLE ("timed out after N ms" once timeout_ms
 * passed, whether in the TCP connect, the TLS handshake or waiting for the server's preface: "...
 * waiting for the server's preface"; "the server did not answer with the Streakd preface" for a
 * peer that is not streakd), or the status of a GOAWAY sent in place of the preface. */
streak_client *streak_connect(const char *host, uint16_t port, int timeout_ms, streak_status *status);

/* TLS for streak_connect_tls (OpenSSL; TLS 1.2 or later, ALPN "streakd/1"). */
typedef struct {
    const char *ca_file;     /* PEM CA certificates to trust; NULL: the system store */
    const char *server_name; /* the name (or address) the certificate must be for; NULL: host */
} streak_tls_options;

/* As streak_connect, inside TLS when `tls` is not NULL (NULL: plaintext, as streak_connect).
 * The handshake shares the timeout. A refused certificate fails with UNAVAILABLE and a message
 * "cannot connect to HOST:PORT over TLS: certificate verify failed: REASON" (hostname mismatch,
 * certificate has expired, unknown CA ...); a CA file that does not load with INVALID_ARGUMENT. */
streak_client *streak_connect_tls(const char *host, uint16_t port, int timeout_ms, const streak_tls_options *tls,
                                  streak_status *status);

/* "TLSv1.3" for a TLS connection, NULL for a plaintext one. */
const char *streak_tls_version(const streak_client *client);

/* Calls a unary method. `method` is a name ("GetHeatmap") or a full path
 * ("/streak.v1.Streaks/GetHeatmap"). `token` may be NULL (Ping needs none); it is sent as
 * "authorization: Bearer <token>". `deadline_ms` > 0 is sent as "deadline-ms" and enforced
 * locally (then CANCEL is sent and DEADLINE_EXCEEDED returned), also while a frame is arriving
 * (slowly, or stalled half-way): what arrived is kept and the next call goes on reading it, so
 * the connection stays usable; 0 means no deadline. A frame the protocol refuses (a length under
 * 5 or over 4 MiB, an unknown kind, a STREAM_MESSAGE or END_STREAM for a unary call, a GOAWAY or
 * PING of the wrong size) closes the connection: INTERNAL "bad frame from the server: ...".
 * On STREAK_OK, *response is a message of `response_type` to free with streak_free_message.
 * A habit name the server would refuse is INVALID_ARGUMENT before anything is sent (below).
 * Returns status->code. */
streak_code streak_call(streak_client *client, const char *method, const char *token, int deadline_ms,
                        const ProtobufCMessage *request, const ProtobufCMessageDescriptor *response_type,
                        ProtobufCMessage **response, streak_status *status);

/* The habit name rule (docs/PROTOCOL.md section 2.2), checked by streak_call before anything is
 * sent: a CreateHabit or RenameHabit request whose name the server would refuse returns
 * STREAK_INVALID_ARGUMENT with the reason, unsent. A name is valid UTF-8 of 1 to
 * STREAK_MAX_HABIT_NAME_LENGTH Unicode scalars (the UTF-8 lead bytes: an emoji is one, e + a
 * combining accent two), at least one not white space, none a control character (U+0000 cannot
 * be in a C string at all).
 * streak_check_habit_name: 0 when the server takes `name`, else -1 with the reason in `error`
 * (at most error_size bytes, NUL-terminated; error may be NULL). */
#define STREAK_MAX_HABIT_NAME_LENGTH 200
int streak_check_habit_name(const char *name, char *error, size_t error_size);

/* The same for the habit name of `request` when it is a CreateHabit or RenameHabit request; 0 for
 * any other message. */
int streak_check_request_names(const ProtobufCMessage *request, char *error, size_t error_size);

/* Called by streak_stream for each message of a server stream, parsed as the stream's message
 * type; the message is freed when the function returns. Return 0 to go on, anything else to
 * stop: the stream is then cancelled and streak_stream returns STREAK_CANCELLED. The client is
 * busy with the stream meanwhile: make no other call on it from inside. */
typedef int (*streak_message_fn)(const ProtobufCMessage *message, void *context);

/* Calls a server-streaming method ("Watch", "ExportData"; a name or a full path): on_message for
 * each STREAM_MESSAGE until the server's END_STREAM, whose status it returns (STREAK_OK when the
 * stream ended with OK). `deadline_ms` > 0 bounds the whole stream: sent as "deadline-ms" and
 * enforced locally (then CANCEL is sent and DEADLINE_EXCEEDED returned); 0 means none. A message
 * that does not parse as `message_type` cancels the stream and returns INTERNAL. After a CANCEL
 * (a stop, a deadline) what is left of the stream is read and dropped for up to two seconds, so
 * that the next call starts clean. */
streak_code streak_stream(streak_client *client, const char *method, const char *token, int deadline_ms,
                          const ProtobufCMessage *request, const ProtobufCMessageDescriptor *message_type,
                          streak_message_fn on_message, void *context, streak_status *status);

/* Typed calls for schedules, skips and rest periods (docs/PROTOCOL.md section 6). Each fills
 * *response (free it with streak_free_message) on STREAK_OK and returns status->code. A NULL
 * date means "today in the user's time zone"; a NULL as_of means today for the streak.
 * `weekdays` are numbers 1 (Sunday) ... 7 (Saturday). */
streak_code streak_set_habit_schedule(streak_client *client, const char *token, int64_t habit_id,
                                      const int *weekdays, size_t n_weekdays, const Streak__V1__Date *from,
                                      Streak__V1__SetHabitScheduleResponse **response, streak_status *status);
streak_code streak_skip_habit(streak_client *client, const char *token, int64_t habit_id,
                              const Streak__V1__Date *date, const Streak__V1__Date *as_of, int skip,
                              Streak__V1__CompletionResponse **response, streak_status *status);
streak_code streak_add_rest_period(streak_client *client, const char *token, const Streak__V1__Date *from,
                                   const Streak__V1__Date *to, const char *note,
                                   Streak__V1__AddRestPeriodResponse **response, streak_status *status);
streak_code streak_list_rest_periods(streak_client *client, const char *token,
                                     Streak__V1__ListRestPeriodsResponse **response, streak_status *status);
streak_code streak_remove_rest_period(streak_client *client, const char *token, int64_t id,
                                      Streak__V1__RemoveRestPeriodResponse **response, streak_status *status);

/* Your data (docs/PROTOCOL.md section 7).
 *
 * streak_delete_habit: the habit goes away with its schedule, completions and skips, durably;
 * the response has the habit as it was and how many completions and skips went with it. An
 * unknown id is NOT_FOUND.
 * streak_unarchive_habit: an archived habit counts again from its archive day on; the response
 * has the habit. A live habit is FAILED_PRECONDITION, an unknown id NOT_FOUND.
 * streak_import_data: habits (matched by exact name or created) with their schedules,
 * completions and skips, rest periods and settings, applied in one transaction and
 * idempotently; records that cannot be applied are listed in response->errors (the first 1,000;
 * response->error_count counts them all; a user has at most 1,000 habits, and one that would be
 * created past that is an error record with field "name"). A request holds
 * about 120,000 dates (the server's 16 MiB decoding budget: each date unpacks to a message of its
 * own; more: RESOURCE_EXHAUSTED from the server; over the 4 MiB frame: RESOURCE_EXHAUSTED before
 * anything is sent): send a long history in several calls, a habit split over them matched by
 * name in the later ones. `deadline_ms` as for streak_call (0: none).
 * Each fills *response (free it with streak_free_message) on STREAK_OK and returns status->code. */
streak_code streak_delete_habit(streak_client *client, const char *token, int64_t habit_id,
                                Streak__V1__DeleteHabitResponse **response, streak_status *status);
streak_code streak_unarchive_habit(streak_client *client, const char *token, int64_t habit_id,
                                   Streak__V1__UnarchiveHabitResponse **response, streak_status *status);
streak_code streak_import_data(streak_client *client, const char *token, int deadline_ms,
                               const Streak__V1__ImportDataRequest *request,
                               Streak__V1__ImportDataResponse **response, streak_status *status);

/* Called by streak_export_data for each page; the page is freed when the function returns (copy
 * what you keep). Return 0 to go on, anything else to stop (the export is cancelled and
 * streak_export_data returns STREAK_CANCELLED). Make no other call on the client from inside. */
typedef int (*streak_export_page_fn)(const Streak__V1__ExportDataPage *page, void *context);

/* ExportData: everything of the user, one consistent snapshot, in pages of up to `page_size`
 * completions and skips (1...65536; 0: the server's 4096). The first page carries the settings,
 * every habit (archived ones included, ascending by id), every rest period and total_records;
 * every page carries completions, then skips, by habit id and date; the last has last = 1.
 * Returns STREAK_OK once the last page was handed over and the server ended the stream with OK;
 * a stream that ends OK before its last page, or sends a page after it, is INTERNAL. An invalid
 * page_size is INVALID_ARGUMENT. `deadline_ms` > 0 bounds the whole export; 0 means none. */
streak_code streak_export_data(streak_client *client, const char *token, int32_t page_size, int deadline_ms,
                               streak_export_page_fn on_page, void *context, streak_status *status);

/* The packed heatmap (docs/PROTOCOL.md section 9; include/streakpacked.h decodes it in fixed memory).
 * Ask GetHeatmap or BuildHeatmap with `packed = 1` (and `packed_month_labels = 1` for the month
 * labels): the response's `packed` is set instead of `heatmap`. streak_packed_from_message points
 * `out` into that message (it must outlive `out`); then streak_packed_decode gives the days.
 * Returns 0, or -1 with the reason in `error`. */
int streak_packed_from_message(const Streak__V1__PackedHeatmap *message, streak_packed *out, char *error,
                               size_t error_size);

/* Frees a response from streak_call (NULL is fine). */
void streak_free_message(ProtobufCMessage *message);

/* Closes the connection and frees the client (NULL is fine). */
void streak_close(streak_client *client);

#ifdef __cplusplus
}
#endif

#endif /* STREAKCLIENT_H */
