/* Typed calls for your data (docs/PROTOCOL.md section 7): delete, unarchive, import, export. */
#include <stdio.h>
#include <stdlib.h>

#include "streakclient.h"

/* The deadline of DeleteHabit and UnarchiveHabit, in milliseconds. */
#define DATA_DEADLINE_MS 10000

streak_code streak_delete_habit(streak_client *client, const char *token, int64_t habit_id,
                                Streak__V1__DeleteHabitResponse **response, streak_status *status) {
    Streak__V1__DeleteHabitRequest request = STREAK__V1__DELETE_HABIT_REQUEST__INIT;
    request.habit_id = habit_id;
    return streak_call(client, "DeleteHabit", token, DATA_DEADLINE_MS, &request.base,
                       &streak__v1__delete_habit_response__descriptor, (ProtobufCMessage **)response, status);
}

streak_code streak_unarchive_habit(streak_client *client, const char *token, int64_t habit_id,
                                   Streak__V1__UnarchiveHabitResponse **response, streak_status *status) {
    Streak__V1__UnarchiveHabitRequest request = STREAK__V1__UNARCHIVE_HABIT_REQUEST__INIT;
    request.habit_id = habit_id;
    return streak_call(client, "UnarchiveHabit", token, DATA_DEADLINE_MS, &request.base,
                       &streak__v1__unarchive_habit_response__descriptor, (ProtobufCMessage **)response, status);
}

streak_code streak_import_data(streak_client *client, const char *token, int deadline_ms,
                               const Streak__V1__ImportDataRequest *request,
                               Streak__V1__ImportDataResponse **response, streak_status *status) {
    if (request == NULL) {
        if (response != NULL) *response = NULL;
        if (status != NULL) {
            status->code = STREAK_INVALID_ARGUMENT;
            snprintf(status->message, sizeof status->message, "streak_import_data: missing request");
        }
        return STREAK_INVALID_ARGUMENT;
    }
    return streak_call(client, "ImportData", token, deadline_ms, &request->base,
                       &streak__v1__import_data_response__descriptor, (ProtobufCMessage **)response, status);
}

/* The pages of one export, checked on their way to the caller's function. */
typedef struct {
    streak_export_page_fn on_page;
    void *context;
    int last_seen;     /* the page with last = 1 came */
    int page_after;    /* a page came after it */
} export_state;

static int export_page(const ProtobufCMessage *message, void *context) {
    export_state *state = context;
    if (state->last_seen) {
        state->page_after = 1;
        return 1;
    }
    const Streak__V1__ExportDataPage *page = (const Streak__V1__ExportDataPage *)message;
    state->last_seen = page->last != 0;
    return state->on_page(page, state->context);
}

streak_code streak_export_data(streak_client *client, const char *token, int32_t page_size, int deadline_ms,
                               streak_export_page_fn on_page, void *context, streak_status *status) {
    streak_status local;
    if (status == NULL) status = &local;
    if (on_page == NULL) {
        status->code = STREAK_INVALID_ARGUMENT;
        snprintf(status->message, sizeof status->message, "streak_export_data: missing page function");
        return STREAK_INVALID_ARGUMENT;
    }
    Streak__V1__ExportDataRequest request = STREAK__V1__EXPORT_DATA_REQUEST__INIT;
    request.page_size = page_size;
    export_state state = {.on_page = on_page, .context = context};
    streak_code code = streak_stream(client, "ExportData", token, deadline_ms, &request.base,
                                     &streak__v1__export_data_page__descriptor, export_page, &state, status);
    if (state.page_after) {
        status->code = STREAK_INTERNAL;
        snprintf(status->message, sizeof status->message, "ExportData: a page after the last one");
        return STREAK_INTERNAL;
    }
    if (code == STREAK_OK && !state.last_seen) {
        status->code = STREAK_INTERNAL;
        snprintf(status->message, sizeof status->message, "ExportData: the stream ended before its last page");
        return STREAK_INTERNAL;
    }
    return code;
}
