#pragma once
// libpq, loaded at run time: a server on the embedded SQLite store never maps libpq and what it
// links (OpenSSL, Kerberos, LDAP: about 5 MiB of resident memory). The types and constants come
// from Debian's libpq-dev headers; the functions are called through pointers that
// streak_pq_load() resolves in libpq.so.5, as streak_PQ... wrappers of libpq's PQ... functions.
// The header by its place under the default include path, not by an absolute path; not through a
// `.systemLibrary(pkgConfig: "libpq")` target either: SwiftPM then links `-lpq` (pkg-config --libs),
// and every streakd would map libpq again (checked with readelf: libpq.so.5 became NEEDED).
#include <postgresql/libpq-fe.h>

/// Loads libpq.so.5 once; NULL when it is loaded, else why it is not. Call before any streak_PQ...
const char *streak_pq_load(void);

/// 1 when the loaded libpq has pipeline mode (PQenterPipelineMode and friends), else 0.
int streak_pq_has_pipeline(void);

/// The functions resolved by streak_pq_load().
struct streak_pq_functions {
    PGconn * (*PQconnectStartParams)(const char *const *keywords, const char *const *values, int expand_dbname);
    PostgresPollingStatusType (*PQconnectPoll)(PGconn *conn);
    void (*PQfinish)(PGconn *conn);
    ConnStatusType (*PQstatus)(const PGconn *conn);
    PGTransactionStatusType (*PQtransactionStatus)(const PGconn *conn);
    char * (*PQerrorMessage)(const PGconn *conn);
    int (*PQsocket)(const PGconn *conn);
    int (*PQsetClientEncoding)(PGconn *conn, const char *encoding);
    PQnoticeProcessor (*PQsetNoticeProcessor)(PGconn *conn, PQnoticeProcessor proc, void *arg);
    // The asynchronous API only: every wait for the server is streakd's own poll() with a
    // deadline (PostgresConnection), never one inside libpq that a hung server could make endless.
    int (*PQsetnonblocking)(PGconn *conn, int arg);
    int (*PQflush)(PGconn *conn);
    int (*PQisBusy)(PGconn *conn);
    int (*PQsendQuery)(PGconn *conn, const char *query);
    int (*PQsendPrepare)(PGconn *conn, const char *stmtName, const char *query, int nParams, const Oid *paramTypes);
    int (*PQsendQueryPrepared)(PGconn *conn, const char *stmtName, int nParams, const char *const *paramValues, const int *paramLengths, const int *paramFormats, int resultFormat);
    PGresult * (*PQgetResult)(PGconn *conn);
    int (*PQconsumeInput)(PGconn *conn);
    PGnotify * (*PQnotifies)(PGconn *conn);
    ExecStatusType (*PQresultStatus)(const PGresult *res);
    char * (*PQresultErrorMessage)(const PGresult *res);
    char * (*PQresultErrorField)(const PGresult *res, int fieldcode);
    int (*PQntuples)(const PGresult *res);
    int (*PQnfields)(const PGresult *res);
    Oid (*PQftype)(const PGresult *res, int field_num);
    char * (*PQcmdTuples)(PGresult *res);
    char * (*PQgetvalue)(const PGresult *res, int tup_num, int field_num);
    int (*PQgetisnull)(const PGresult *res, int tup_num, int field_num);
    void (*PQclear)(PGresult *res);
    void (*PQfreemem)(void *ptr);
    // Pipeline mode (libpq 14 and later): NULL when the loaded libpq has none of it, and then
    // streak_pq_has_pipeline() is 0 and statements are sent one at a time.
    int (*PQenterPipelineMode)(PGconn *conn);
    int (*PQexitPipelineMode)(PGconn *conn);
    int (*PQpipelineSync)(PGconn *conn);
};
extern struct streak_pq_functions streak_pq;

static inline PGconn * streak_PQconnectStartParams(const char *const *keywords, const char *const *values, int expand_dbname) { return streak_pq.PQconnectStartParams(keywords, values, expand_dbname); }
static inline PostgresPollingStatusType streak_PQconnectPoll(PGconn *conn) { return streak_pq.PQconnectPoll(conn); }
static inline void streak_PQfinish(PGconn *conn) { streak_pq.PQfinish(conn); }
static inline ConnStatusType streak_PQstatus(const PGconn *conn) { return streak_pq.PQstatus(conn); }
static inline PGTransactionStatusType streak_PQtransactionStatus(const PGconn *conn) { return streak_pq.PQtransactionStatus(conn); }
static inline char * streak_PQerrorMessage(const PGconn *conn) { return streak_pq.PQerrorMessage(conn); }
static inline int streak_PQsocket(const PGconn *conn) { return streak_pq.PQsocket(conn); }
static inline int streak_PQsetClientEncoding(PGconn *conn, const char *encoding) { return streak_pq.PQsetClientEncoding(conn, encoding); }
static inline PQnoticeProcessor streak_PQsetNoticeProcessor(PGconn *conn, PQnoticeProcessor proc, void *arg) { return streak_pq.PQsetNoticeProcessor(conn, proc, arg); }
static inline int streak_PQsetnonblocking(PGconn *conn, int arg) { return streak_pq.PQsetnonblocking(conn, arg); }
static inline int streak_PQflush(PGconn *conn) { return streak_pq.PQflush(conn); }
static inline int streak_PQisBusy(PGconn *conn) { return streak_pq.PQisBusy(conn); }
static inline int streak_PQsendQuery(PGconn *conn, const char *query) { return streak_pq.PQsendQuery(conn, query); }
static inline int streak_PQsendPrepare(PGconn *conn, const char *stmtName, const char *query, int nParams, const Oid *paramTypes) { return streak_pq.PQsendPrepare(conn, stmtName, query, nParams, paramTypes); }
static inline int streak_PQconsumeInput(PGconn *conn) { return streak_pq.PQconsumeInput(conn); }
static inline PGnotify * streak_PQnotifies(PGconn *conn) { return streak_pq.PQnotifies(conn); }
static inline ExecStatusType streak_PQresultStatus(const PGresult *res) { return streak_pq.PQresultStatus(res); }
static inline char * streak_PQresultErrorMessage(const PGresult *res) { return streak_pq.PQresultErrorMessage(res); }
static inline char * streak_PQresultErrorField(const PGresult *res, int fieldcode) { return streak_pq.PQresultErrorField(res, fieldcode); }
static inline int streak_PQntuples(const PGresult *res) { return streak_pq.PQntuples(res); }
static inline int streak_PQnfields(const PGresult *res) { return streak_pq.PQnfields(res); }
static inline Oid streak_PQftype(const PGresult *res, int field_num) { return streak_pq.PQftype(res, field_num); }
static inline char * streak_PQcmdTuples(PGresult *res) { return streak_pq.PQcmdTuples(res); }
static inline char * streak_PQgetvalue(const PGresult *res, int tup_num, int field_num) { return streak_pq.PQgetvalue(res, tup_num, field_num); }
static inline int streak_PQgetisnull(const PGresult *res, int tup_num, int field_num) { return streak_pq.PQgetisnull(res, tup_num, field_num); }
static inline void streak_PQclear(PGresult *res) { streak_pq.PQclear(res); }
static inline void streak_PQfreemem(void *ptr) { streak_pq.PQfreemem(ptr); }
static inline int streak_PQsendQueryPrepared(PGconn *conn, const char *stmtName, int nParams, const char *const *paramValues, const int *paramLengths, const int *paramFormats, int resultFormat) { return streak_pq.PQsendQueryPrepared(conn, stmtName, nParams, paramValues, paramLengths, paramFormats, resultFormat); }
static inline PGresult * streak_PQgetResult(PGconn *conn) { return streak_pq.PQgetResult(conn); }
static inline int streak_PQenterPipelineMode(PGconn *conn) { return streak_pq.PQenterPipelineMode(conn); }
static inline int streak_PQexitPipelineMode(PGconn *conn) { return streak_pq.PQexitPipelineMode(conn); }
static inline int streak_PQpipelineSync(PGconn *conn) { return streak_pq.PQpipelineSync(conn); }
