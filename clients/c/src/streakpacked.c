/* streakpacked.c: the compact heatmap of docs/PROTOCOL.md section 9, decoded without malloc or
 * protobuf-c. See include/streakpacked.h. */
#include "streakpacked.h"

#include <stdarg.h>
#include <stdio.h>

static int fail(char *error, size_t size, const char *format, ...) {
    if (error != NULL && size > 0) {
        va_list args;
        va_start(args, format);
        vsnprintf(error, size, format, args);
        va_end(args);
    }
    return -1;
}

/* Howard Hinnant's days_from_civil / civil_from_days, in 64-bit arithmetic so that no int32_t
 * input overflows; results outside int32_t saturate (only days of years beyond +-5.8 million). */
static int32_t saturate(int64_t value) {
    return value < INT32_MIN ? INT32_MIN : value > INT32_MAX ? INT32_MAX : (int32_t)value;
}

int32_t streak_days_from_civil(int32_t year, int32_t month, int32_t day) {
    int64_t y = (int64_t)year - (month <= 2);
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * ((int64_t)month + (month > 2 ? -3 : 9)) + 2) / 5 + (int64_t)day - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return saturate(era * 146097 + doe - 719468);
}

void streak_civil_from_days(int32_t days, int32_t *year, int32_t *month, int32_t *day) {
    int64_t z = (int64_t)days + 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    int64_t d = doy - (153 * mp + 2) / 5 + 1;
    int64_t m = mp < 10 ? mp + 3 : mp - 9;
    *year = (int32_t)(yoe + era * 400 + (m <= 2 ? 1 : 0));
    *month = (int32_t)m;
    *day = (int32_t)d;
}

int streak_date_is_valid(int64_t year, int64_t month, int64_t day) {
    static const int8_t lengths[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (year < 1 || year > 9999 || month < 1 || month > 12 || day < 1) return 0;
    int leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    return day <= lengths[month - 1] + (month == 2 && leap);
}

int streak_weekday_of(int32_t days) {
    /* 1970-01-01 was a Thursday (5). */
    return (int)(((days % 7) + 7 + 4) % 7) + 1;
}

/* --- protobuf, as much as a PackedHeatmap needs ------------------------------------------------ */

/* A protobuf varint (up to 10 bytes). Returns the bytes read, 0 when truncated or too long. */
static size_t pb_varint(const uint8_t *p, size_t n, uint64_t *value) {
    uint64_t v = 0;
    for (size_t i = 0; i < n && i < 10; i++) {
        v |= (uint64_t)(p[i] & 0x7F) << (7 * i);
        if ((p[i] & 0x80) == 0) {
            *value = v;
            return i + 1;
        }
    }
    return 0;
}

/* Visits each field: returns 0 when every field was read, -1 on malformed bytes. */
typedef int (*pb_visit)(uint32_t field, uint32_t wire_type, uint64_t value, const uint8_t *bytes, size_t n,
                        void *context);

static int pb_fields(const uint8_t *p, size_t n, pb_visit visit, void *context) {
    size_t at = 0;
    while (at < n) {
        uint64_t key, value = 0;
        size_t used = pb_varint(p + at, n - at, &key);
        if (used == 0 || (key >> 3) == 0 || (key >> 3) > 0x1FFFFFFF) return -1;
        at += used;
        uint32_t field = (uint32_t)(key >> 3), wire_type = (uint32_t)(key & 7);
        const uint8_t *bytes = NULL;
        size_t length = 0;
        switch (wire_type) {
        case 0:
            used = pb_varint(p + at, n - at, &value);
            if (used == 0) return -1;
            at += used;
            break;
        case 1:
        case 5:
            length = wire_type == 1 ? 8 : 4;
            if (n - at < length) return -1;
            at += length;
            length = 0;
            break;
        case 2:
            used = pb_varint(p + at, n - at, &value);
            if (used == 0 || value > n - at - used) return -1;
            bytes = p + at + used;
            length = (size_t)value;
            at += used + length;
            break;
        default:
            return -1;
        }
        if (visit != NULL && visit(field, wire_type, value, bytes, length, context) != 0) return -1;
    }
    return 0;
}

typedef struct {
    uint32_t field;
    const uint8_t *value;
    size_t length;
    int found;
} field_search;

static int find_visit(uint32_t field, uint32_t wire_type, uint64_t value, const uint8_t *bytes, size_t n,
                      void *context) {
    (void)value;
    field_search *search = context;
    if (field == search->field && wire_type == 2) {
        search->value = bytes;
        search->length = n;
        search->found = 1;
    }
    return 0;
}

int streak_protobuf_field(const uint8_t *message, size_t length, uint32_t field, const uint8_t **value,
                          size_t *value_length) {
    field_search search = {field, NULL, 0, 0};
    if (pb_fields(message, length, find_visit, &search) != 0) return -1;
    if (!search.found) return 0;
    *value = search.value;
    *value_length = search.length;
    return 1;
}

typedef struct {
    int64_t year, month, day;
} date_fields;

static int date_visit(uint32_t field, uint32_t wire_type, uint64_t value, const uint8_t *bytes, size_t n,
                      void *context) {
    (void)bytes;
    (void)n;
    date_fields *date = context;
    if (wire_type != 0) return 0;
    if (field == 1) date->year = (int64_t)value;
    if (field == 2) date->month = (int64_t)value;
    if (field == 3) date->day = (int64_t)value;
    return 0;
}

typedef struct {
    streak_packed *out;
    int has_from, has_to, bad_date;
} parse_state;

static int packed_visit(uint32_t field, uint32_t wire_type, uint64_t value, const uint8_t *bytes, size_t n,
                        void *context) {
    parse_state *state = context;
    streak_packed *out = state->out;
    if ((field == 1 || field == 2) && wire_type == 2) {
        date_fields date = {0, 0, 0};
        if (pb_fields(bytes, n, date_visit, &date) != 0) return -1;
        if (!streak_date_is_valid(date.year, date.month, date.day)) {
            if (state->bad_date == 0) state->bad_date = (int)field;
            return 0;
        }
        int32_t day = streak_days_from_civil((int32_t)date.year, (int32_t)date.month, (int32_t)date.day);
        if (field == 1) {
            out->from_day = day;
            state->has_from = 1;
        } else {
            out->to_day = day;
            state->has_to = 1;
        }
    } else if (field == 3 && wire_type == 0) {
        out->week_start = value >= 1 && value <= 7 ? (int)value : 0;
    } else if (field == 4 && wire_type == 0) {
        out->days = value > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)value;
    } else if (field >= 5 && field <= 9 && wire_type == 2) {
        const uint8_t **target[] = {&out->levels, &out->percents, &out->active, &out->excused, &out->exceptions};
        size_t *lengths[] = {&out->n_levels, &out->n_percents, &out->n_active, &out->n_excused, &out->n_exceptions};
        *target[field - 5] = bytes;
        *lengths[field - 5] = n;
    }
    return 0;
}

int streak_packed_parse(const uint8_t *message, size_t length, streak_packed *out, char *error, size_t error_size) {
    static const uint8_t empty[1] = {0};
    streak_packed blank = {0, 0, 0, 0, empty, 0, empty, 0, empty, 0, empty, 0, empty, 0};
    *out = blank;
    parse_state state = {out, 0, 0, 0};
    if (pb_fields(message, length, packed_visit, &state) != 0) {
        return fail(error, error_size, "packed heatmap: not a valid protobuf message");
    }
    if (state.bad_date) {
        return fail(error, error_size, "packed heatmap: %s is not a day in 0001-01-01...9999-12-31",
                    state.bad_date == 1 ? "from" : "to");
    }
    if (!state.has_from || !state.has_to) return fail(error, error_size, "packed heatmap: from and to are required");
    if (out->week_start == 0) return fail(error, error_size, "packed heatmap: week_start is required");
    return 0;
}

/* --- the cells ---------------------------------------------------------------------------------- */

/* A varint of the compact encodings: at most 5 bytes, below 2^32 (section 9.1). */
static int packed_varint(const uint8_t *p, size_t n, size_t *at, uint32_t *value, const char *field, char *error,
                         size_t error_size) {
    size_t start = *at;
    uint32_t v = 0;
    for (int i = 0; i < 5; i++) {
        if (*at >= n) return fail(error, error_size, "packed heatmap: %s: truncated varint at byte %zu", field, start);
        uint8_t byte = p[(*at)++];
        if (i == 4 && byte > 0x0F) {
            return fail(error, error_size, "packed heatmap: %s: overlong varint at byte %zu", field, start);
        }
        v |= (uint32_t)(byte & 0x7F) << (7 * i);
        if ((byte & 0x80) == 0) {
            *value = v;
            return 0;
        }
    }
    return fail(error, error_size, "packed heatmap: %s: overlong varint at byte %zu", field, start);
}

/* Reads runs over the days in row order into active (which = 0) or excused (which = 1). */
static int read_runs(const streak_packed *packed, int lead, int which, streak_packed_day *days, char *error,
                     size_t error_size) {
    const char *field = which == 0 ? "active" : "excused";
    const uint8_t *p = which == 0 ? packed->active : packed->excused;
    size_t n = which == 0 ? packed->n_active : packed->n_excused;
    size_t at = 0;
    uint32_t remaining = 0, value = 0, covered = 0;
    for (int row = 0; row < 7; row++) {
        for (uint32_t i = (uint32_t)((row - lead + 7) % 7); i < packed->days; i += 7) {
            if (remaining == 0) {
                if (at >= n) {
                    return fail(error, error_size, "packed heatmap: %s: the runs cover %u of %u cells", field,
                                (unsigned)covered, (unsigned)packed->days);
                }
                /* One varint a run: length * 8 + value, or length * 8 + 7 and then the value. */
                uint32_t run;
                if (packed_varint(p, n, &at, &run, field, error, error_size) != 0) return -1;
                remaining = run >> 3;
                value = run & 7;
                if (value == 7 && packed_varint(p, n, &at, &value, field, error, error_size) != 0) return -1;
                if (remaining == 0) return fail(error, error_size, "packed heatmap: %s: a run of length 0", field);
                if (remaining > packed->days - covered) {
                    return fail(error, error_size, "packed heatmap: %s: the runs cover more than %u cells", field,
                                (unsigned)packed->days);
                }
            }
            if (which == 0) {
                days[i].active = value;
            } else {
                days[i].due = value; /* excused for now; due = active - excused below */
            }
            remaining--;
            covered++;
        }
    }
    if (at < n) {
        return fail(error, error_size, "packed heatmap: %s: the runs cover more than %u cells", field,
                    (unsigned)packed->days);
    }
    return 0;
}

int streak_packed_decode(const streak_packed *packed, streak_packed_day *days, size_t capacity,
                         streak_packed_grid *grid, char *error, size_t error_size) {
    if (packed->week_start < 1 || packed->week_start > 7) {
        return fail(error, error_size, "packed heatmap: week_start is required");
    }
    /* from_day and to_day may come from anywhere (a caller's own struct): checked before any arithmetic. */
    if (packed->from_day < STREAK_PACKED_FIRST_DAY || packed->from_day > STREAK_PACKED_LAST_DAY ||
        packed->to_day < STREAK_PACKED_FIRST_DAY || packed->to_day > STREAK_PACKED_LAST_DAY) {
        return fail(error, error_size, "packed heatmap: from or to is outside 0001-01-01...9999-12-31");
    }
    if (packed->from_day > packed->to_day || packed->to_day - packed->from_day >= STREAK_PACKED_MAX_DAYS) {
        return fail(error, error_size, "packed heatmap: the range is not 1...%d days", STREAK_PACKED_MAX_DAYS);
    }
    uint32_t count = packed->days;
    if (count > (uint32_t)(packed->to_day - packed->from_day) + 1) {
        return fail(error, error_size, "packed heatmap: days %u is more than the range holds", (unsigned)count);
    }
    if (count > capacity) return fail(error, error_size, "packed heatmap: %u days do not fit %zu", (unsigned)count, capacity);
    if (packed->n_levels != (count + 3) / 4) {
        return fail(error, error_size, "packed heatmap: levels has %zu bytes, not %u", packed->n_levels,
                    (unsigned)((count + 3) / 4));
    }
    if (count % 4 != 0 && (packed->levels[packed->n_levels - 1] >> (2 * (count % 4))) != 0) {
        return fail(error, error_size, "packed heatmap: levels: the unused bits of the last byte are not 0");
    }
    if (packed->n_percents != count) {
        return fail(error, error_size, "packed heatmap: percents has %zu bytes, not %u", packed->n_percents,
                    (unsigned)count);
    }
    int lead = (streak_weekday_of(packed->from_day) - packed->week_start + 7) % 7;
    grid->lead = lead;
    grid->weeks = (uint32_t)(packed->to_day - (packed->from_day - lead)) / 7 + 1;
    if (read_runs(packed, lead, 0, days, error, error_size) != 0) return -1;
    if (read_runs(packed, lead, 1, days, error, error_size) != 0) return -1;
    for (uint32_t i = 0; i < count; i++) {
        streak_packed_day *day = &days[i];
        uint32_t excused = day->due;
        if (excused > day->active) return fail(error, error_size, "packed heatmap: excused: more than active on day %u", (unsigned)i);
        day->due = day->active - excused;
        day->level = (uint8_t)streak_packed_level(packed, i);
        day->percent = packed->percents[i];
        if (day->percent > 100) {
            return fail(error, error_size, "packed heatmap: percents: %u for day %u", (unsigned)day->percent, (unsigned)i);
        }
        /* Exact whenever due <= 100; the server lists every day where it is not (section 9.4). */
        day->completed = (uint32_t)(((uint64_t)day->percent * day->due + 50) / 100);
        day->rest = day->active > 0 && day->due == 0;
    }
    size_t at = 0;
    int64_t previous = -1;
    while (at < packed->n_exceptions) {
        uint32_t index, completed;
        if (packed_varint(packed->exceptions, packed->n_exceptions, &at, &index, "completed_exceptions", error,
                          error_size) != 0 ||
            packed_varint(packed->exceptions, packed->n_exceptions, &at, &completed, "completed_exceptions", error,
                          error_size) != 0) {
            return -1;
        }
        if ((int64_t)index <= previous || index >= count) {
            return fail(error, error_size, "packed heatmap: completed_exceptions: cell %u is out of order or past the last",
                        (unsigned)index);
        }
        days[index].completed = completed;
        previous = index;
    }
    for (uint32_t i = 0; i < count; i++) {
        if (days[i].completed > days[i].due) {
            return fail(error, error_size, "packed heatmap: completed: more than due on day %u", (unsigned)i);
        }
    }
    return 0;
}
