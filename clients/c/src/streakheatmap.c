/* streakheatmap.c: a protobuf-c PackedHeatmap as the fixed-memory decoder's input. */
#include <stdio.h>

#include "streakclient.h"

int streak_packed_from_message(const Streak__V1__PackedHeatmap *message, streak_packed *out, char *error,
                               size_t error_size) {
    static const uint8_t empty[1] = {0};
    if (message == NULL || message->from == NULL || message->to == NULL) {
        if (error != NULL && error_size > 0) snprintf(error, error_size, "packed heatmap: from and to are required");
        return -1;
    }
    /* Real days only (PROTOCOL.md section 9.7), checked before any arithmetic on them. */
    const Streak__V1__Date *dates[2] = {message->from, message->to};
    for (int i = 0; i < 2; i++) {
        if (!streak_date_is_valid(dates[i]->year, dates[i]->month, dates[i]->day)) {
            if (error != NULL && error_size > 0) {
                snprintf(error, error_size, "packed heatmap: %s %d-%02d-%02d is not a day in 0001-01-01...9999-12-31",
                         i == 0 ? "from" : "to", (int)dates[i]->year, (int)dates[i]->month, (int)dates[i]->day);
            }
            return -1;
        }
    }
    out->from_day = streak_days_from_civil(message->from->year, message->from->month, message->from->day);
    out->to_day = streak_days_from_civil(message->to->year, message->to->month, message->to->day);
    out->week_start = message->week_start >= 1 && message->week_start <= 7 ? (int)message->week_start : 0;
    out->days = message->days;
    out->levels = message->levels.data != NULL ? message->levels.data : empty;
    out->n_levels = message->levels.len;
    out->percents = message->percents.data != NULL ? message->percents.data : empty;
    out->n_percents = message->percents.len;
    out->active = message->active.data != NULL ? message->active.data : empty;
    out->n_active = message->active.len;
    out->excused = message->excused.data != NULL ? message->excused.data : empty;
    out->n_excused = message->excused.len;
    out->exceptions = message->completed_exceptions.data != NULL ? message->completed_exceptions.data : empty;
    out->n_exceptions = message->completed_exceptions.len;
    return 0;
}
