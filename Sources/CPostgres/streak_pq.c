#include "streak_pq.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

struct streak_pq_functions streak_pq;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char failure[256];
static int loaded;
static int has_pipeline;

static void load(void) {
    void *library = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(failure, sizeof failure, "cannot load libpq (apt-get install libpq5): %s", dlerror());
        return;
    }
#define RESOLVE(name)                                                                    \
    if ((*(void **)&streak_pq.name = dlsym(library, #name)) == NULL) {                    \
        snprintf(failure, sizeof failure, "libpq.so.5 has no %s", #name);                 \
        return;                                                                          \
    }
    RESOLVE(PQconnectStartParams)
    RESOLVE(PQconnectPoll)
    RESOLVE(PQfinish)
    RESOLVE(PQstatus)
    RESOLVE(PQtransactionStatus)
    RESOLVE(PQerrorMessage)
    RESOLVE(PQsocket)
    RESOLVE(PQsetClientEncoding)
    RESOLVE(PQsetNoticeProcessor)
    RESOLVE(PQsetnonblocking)
    RESOLVE(PQflush)
    RESOLVE(PQisBusy)
    RESOLVE(PQsendQuery)
    RESOLVE(PQsendPrepare)
    RESOLVE(PQsendQueryPrepared)
    RESOLVE(PQgetResult)
    RESOLVE(PQconsumeInput)
    RESOLVE(PQnotifies)
    RESOLVE(PQresultStatus)
    RESOLVE(PQresultErrorMessage)
    RESOLVE(PQresultErrorField)
    RESOLVE(PQntuples)
    RESOLVE(PQnfields)
    RESOLVE(PQftype)
    RESOLVE(PQcmdTuples)
    RESOLVE(PQgetvalue)
    RESOLVE(PQgetisnull)
    RESOLVE(PQclear)
    RESOLVE(PQfreemem)
#undef RESOLVE
    // Optional: an older libpq (before 14) still serves, one statement at a time.
    *(void **)&streak_pq.PQenterPipelineMode = dlsym(library, "PQenterPipelineMode");
    *(void **)&streak_pq.PQexitPipelineMode = dlsym(library, "PQexitPipelineMode");
    *(void **)&streak_pq.PQpipelineSync = dlsym(library, "PQpipelineSync");
    has_pipeline = streak_pq.PQenterPipelineMode != NULL && streak_pq.PQexitPipelineMode != NULL &&
                   streak_pq.PQpipelineSync != NULL;
    loaded = 1;
}

const char *streak_pq_load(void) {
    pthread_once(&once, load);
    return loaded ? NULL : failure;
}

int streak_pq_has_pipeline(void) {
    return streak_pq_load() == NULL && has_pipeline;
}
