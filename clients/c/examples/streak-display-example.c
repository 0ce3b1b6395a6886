/* streak-display-example: the year from the packed heatmap (docs/PROTOCOL.md section 9), drawn the
 * way a microcontroller draws it on a small display: the days are decoded into a fixed array, then
 * drawn into a 1-bit frame buffer the size of a 2.13-inch e-paper panel (250 x 122 pixels, 8
 * pixels a byte), which is then "flushed" to the terminal, two pixel rows per line. Nothing on
 * the decode-and-draw path allocates: every buffer is static. (The network call itself, through
 * libstreakclient and protobuf-c, does allocate; a device would read the reply into a fixed buffer
 * and find the PackedHeatmap with streak_protobuf_field, as --decode does.)
 *
 * usage: streak-display-example [--server HOST:PORT] [--token TOKEN | --token-file FILE] [--tls]
 *            [--ca-file FILE] [--tls-server-name NAME]
 *            [--from D] [--to D] [--as-of D] [--week-start 1-7] [--labels] [--list]
 *        streak-display-example [...] --as-of D --check SEED ROUNDS
 *        streak-display-example --decode HEX [--labels] [--list]
 * The first form asks GetHeatmap for the packed answer and draws it (--labels: with the month
 * labels, as a line of text above; --list: also every day's numbers). --check compares the packed
 * answer with the classic one, cell by cell, on ROUNDS random ranges, "today"s and week starts
 * around D (seeded: the same SEED asks the same questions). --decode draws a GetHeatmapResponse
 * given as hex, with no server and no protobuf-c.
 * Cells: a dot for 0 %, a bar for 1-49 %, a cross for 50-99 %, a block for 100 %, a dash for a
 * rest day, nothing for an absent day. The connection options and their defaults are
 * example-options.h's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "example-options.h"
#include "streakclient.h"
#include "streakpacked.h"

#define DEADLINE_MS 10000

/* The panel: 250 x 122 pixels, 1 bit each, rows of 32 bytes (the leftmost pixel is the high bit). */
#define PANEL_WIDTH 250
#define PANEL_HEIGHT 122
#define PANEL_STRIDE ((PANEL_WIDTH + 7) / 8)
/* A cell is 3 x 3 pixels on a 4-pixel pitch: 62 weeks fit across, the 7 rows take 28 pixels. */
#define PITCH 4
#define MAX_WEEKS (PANEL_WIDTH / PITCH)

static uint8_t panel[PANEL_HEIGHT][PANEL_STRIDE];
static streak_packed_day days[STREAK_PACKED_MAX_DAYS];
static char label_line[PANEL_WIDTH + 1];
static char error[256];

/* 3 x 3 patterns, three bits a row (the high bit leftmost): level 0 ... 3, then rest. */
static const uint8_t patterns[5][3] = {
    {0, 2, 0}, /* a dot: 0 % */
    {2, 2, 2}, /* a bar: 1-49 % */
    {2, 7, 2}, /* a cross: 50-99 % */
    {7, 7, 7}, /* a block: 100 % */
    {0, 7, 0}, /* a dash: a rest day */
};

static void set_pixel(int x, int y) {
    if (x >= 0 && x < PANEL_WIDTH && y >= 0 && y < PANEL_HEIGHT) panel[y][x / 8] |= (uint8_t)(0x80 >> (x % 8));
}

static int pixel(int x, int y) { return (panel[y][x / 8] >> (7 - x % 8)) & 1; }

static void draw_cell(int column, int row, const uint8_t pattern[3]) {
    for (int dy = 0; dy < 3; dy++) {
        for (int dx = 0; dx < 3; dx++) {
            if (pattern[dy] & (4 >> dx)) set_pixel(column * PITCH + dx, row * PITCH + dy);
        }
    }
}

/* Two pixel rows a line: upper half, lower half, both or neither. */
static void flush_panel(int width, int height) {
    static const char *const glyphs[4] = {" ", "\xE2\x96\x84", "\xE2\x96\x80", "\xE2\x96\x88"}; /* ▄ ▀ █ */
    for (int y = 0; y < height; y += 2) {
        int end = width;
        while (end > 0 && !pixel(end - 1, y) && (y + 1 >= height || !pixel(end - 1, y + 1))) end--;
        for (int x = 0; x < end; x++) {
            int top = pixel(x, y), bottom = y + 1 < height ? pixel(x, y + 1) : 0;
            fputs(glyphs[top * 2 + bottom], stdout);
        }
        putchar('\n');
    }
}

static const char *day_text(int32_t day_number, char buffer[16]) {
    int32_t y, m, d;
    streak_civil_from_days(day_number, &y, &m, &d);
    snprintf(buffer, 16, "%04d-%02d-%02d", (int)y, (int)m, (int)d);
    return buffer;
}

static const char *weekday_name(int weekday) {
    static const char *const names[] = {"?", "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday",
                                        "Friday", "Saturday"};
    return weekday >= 1 && weekday <= 7 ? names[weekday] : "?";
}

/* Decodes and draws; `labels` may be NULL. Returns 0, or 1 after printing the error. */
static int draw(const streak_packed *packed, size_t message_bytes, const Streak__V1__MonthLabel *const *labels,
                size_t n_labels, int list) {
    streak_packed_grid grid;
    if (streak_packed_decode(packed, days, STREAK_PACKED_MAX_DAYS, &grid, error, sizeof error) != 0) {
        fprintf(stderr, "streak-display-example: %s\n", error);
        return 1;
    }
    char d1[16], d2[16];
    printf("packed heatmap: %zu bytes; %s to %s, %u days, %u weeks from %s\n", message_bytes,
           day_text(packed->from_day, d1), day_text(packed->to_day, d2), (unsigned)packed->days,
           (unsigned)grid.weeks, weekday_name(packed->week_start));
    /* The most recent weeks that fit the panel. */
    uint32_t skipped = grid.weeks > MAX_WEEKS ? grid.weeks - MAX_WEEKS : 0;
    uint32_t shown = grid.weeks - skipped;
    memset(panel, 0, sizeof panel);
    for (uint32_t i = 0; i < packed->days; i++) {
        uint32_t position = (uint32_t)grid.lead + i;
        if (position / 7 < skipped) continue;
        const streak_packed_day *day = &days[i];
        draw_cell((int)(position / 7 - skipped), (int)(position % 7), patterns[day->rest ? 4 : day->level]);
    }
    if (labels != NULL && n_labels > 0) {
        memset(label_line, ' ', PANEL_WIDTH);
        label_line[PANEL_WIDTH] = '\0';
        for (size_t i = 0; i < n_labels; i++) {
            int64_t column = (int64_t)labels[i]->week_index - (int64_t)skipped;
            if (column < 0) continue;
            for (size_t k = 0; labels[i]->label[k] != '\0' && column * PITCH + (int64_t)k < PANEL_WIDTH; k++) {
                label_line[column * PITCH + (int64_t)k] = labels[i]->label[k];
            }
        }
        size_t end = PANEL_WIDTH;
        while (end > 0 && label_line[end - 1] == ' ') label_line[--end] = '\0';
        printf("%s\n", label_line);
    }
    flush_panel((int)shown * PITCH, 7 * PITCH);
    if (list) {
        for (uint32_t i = 0; i < packed->days; i++) {
            const streak_packed_day *day = &days[i];
            printf("%s row %d: level %u, %u%%, %u of %u due, %u active%s\n", day_text(packed->from_day + (int32_t)i, d1),
                   (int)((grid.lead + i) % 7), (unsigned)day->level, (unsigned)day->percent,
                   (unsigned)day->completed, (unsigned)day->due, (unsigned)day->active, day->rest ? ", rest" : "");
        }
    }
    return 0;
}

/* --- --decode HEX: no server, no protobuf-c ------------------------------------------------------ */

static uint8_t message_buffer[65536];

static int decode_hex(const example_options *o, const char *hex, int list) {
    size_t n = 0;
    for (const char *p = hex; *p != '\0';) {
        if (*p == ' ' || *p == ':') {
            p++;
            continue;
        }
        unsigned value;
        if (n == sizeof message_buffer || sscanf(p, "%2x", &value) != 1 || p[1] == '\0') {
            example_usage(o, "--decode takes hex bytes (at most %zu)", sizeof message_buffer);
        }
        message_buffer[n++] = (uint8_t)value;
        p += 2;
    }
    const uint8_t *field;
    size_t length;
    /* A GetHeatmapResponse: the packed heatmap is its field 2. */
    int found = streak_protobuf_field(message_buffer, n, 2, &field, &length);
    if (found != 1) {
        fprintf(stderr, "streak-display-example: %s\n",
                found == 0 ? "the response has no packed heatmap" : "not a protobuf message");
        return 1;
    }
    streak_packed packed;
    if (streak_packed_parse(field, length, &packed, error, sizeof error) != 0) {
        fprintf(stderr, "streak-display-example: %s\n", error);
        return 1;
    }
    return draw(&packed, n, NULL, 0, list);
}

/* --- the server ------------------------------------------------------------------------------------ */

static void set_date(Streak__V1__Date *out, int32_t day_number) {
    int32_t y, m, d;
    streak_civil_from_days(day_number, &y, &m, &d);
    streak__v1__date__init(out);
    out->year = y;
    out->month = m;
    out->day = d;
}

static int failed(const char *what, const streak_status *st) {
    fprintf(stderr, "streak-display-example: %s failed: %s (%d): %s\n", what, streak_code_name(st->code), st->code,
            st->message);
    return 1;
}

static Streak__V1__GetHeatmapResponse *get_heatmap(streak_client *client, const char *token,
                                                   Streak__V1__GetHeatmapRequest *request, streak_status *st) {
    Streak__V1__GetHeatmapResponse *response = NULL;
    if (streak_call(client, "GetHeatmap", token, DEADLINE_MS, &request->base,
                    &streak__v1__get_heatmap_response__descriptor, (ProtobufCMessage **)&response, st) != STREAK_OK) {
        return NULL;
    }
    return response;
}

/* The next number of a seeded SplitMix64, for --check. */
static uint64_t next_random(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static int same_date(const Streak__V1__Date *date, int32_t day_number) {
    if (date == NULL) return 0;
    return streak_days_from_civil(date->year, date->month, date->day) == day_number;
}

/* Compares the decoded packed answer with the classic one; prints the first difference. */
static int compare(const Streak__V1__Heatmap *classic, const Streak__V1__PackedHeatmap *message) {
    streak_packed packed;
    streak_packed_grid grid;
    if (streak_packed_from_message(message, &packed, error, sizeof error) != 0 ||
        streak_packed_decode(&packed, days, STREAK_PACKED_MAX_DAYS, &grid, error, sizeof error) != 0) {
        printf("the packed answer does not decode: %s\n", error);
        return 0;
    }
    if (!same_date(classic->from, packed.from_day) || !same_date(classic->to, packed.to_day) ||
        (int)classic->week_start != packed.week_start || classic->n_weeks != grid.weeks) {
        printf("range, week start or week count differ\n");
        return 0;
    }
    int32_t column = packed.from_day - grid.lead;
    for (size_t w = 0; w < classic->n_weeks; w++, column += 7) {
        const Streak__V1__HeatmapWeek *week = classic->weeks[w];
        if (!same_date(week->start, column > packed.from_day ? column : packed.from_day) || week->n_cells != 7) {
            printf("week %zu: start or cell count differ\n", w);
            return 0;
        }
        for (int r = 0; r < 7; r++) {
            const Streak__V1__HeatmapCell *cell = week->cells[r];
            int64_t index = (int64_t)column + r - packed.from_day;
            int present = index >= 0 && index < (int64_t)packed.days;
            if (cell->present != present) {
                printf("week %zu row %d: present %d, packed %d\n", w, r, cell->present, present);
                return 0;
            }
            if (!present) continue;
            const streak_packed_day *day = &days[index];
            if (!same_date(cell->date, column + r) || cell->level != day->level || cell->percent != day->percent ||
                (uint32_t)cell->active != day->active || (uint32_t)cell->due != day->due ||
                (uint32_t)cell->completed != day->completed || cell->rest != day->rest) {
                char d1[16];
                printf("%s: classic level %d, %d%%, %d of %d due, %d active, rest %d; packed level %u, %u%%, %u of "
                       "%u due, %u active, rest %u\n",
                       day_text(column + r, d1), (int)cell->level, (int)cell->percent, (int)cell->completed,
                       (int)cell->due, (int)cell->active, (int)cell->rest, (unsigned)day->level,
                       (unsigned)day->percent, (unsigned)day->completed, (unsigned)day->due, (unsigned)day->active,
                       (unsigned)day->rest);
                return 0;
            }
        }
    }
    if (classic->n_month_labels != message->n_month_labels) {
        printf("month labels differ\n");
        return 0;
    }
    for (size_t i = 0; i < classic->n_month_labels; i++) {
        if (strcmp(classic->month_labels[i]->label, message->month_labels[i]->label) != 0 ||
            classic->month_labels[i]->week_index != message->month_labels[i]->week_index) {
            printf("month label %zu differs\n", i);
            return 0;
        }
    }
    return 1;
}

static int check(streak_client *client, const char *token, const Streak__V1__Date *around, uint64_t seed, int rounds) {
    uint64_t state = seed;
    int32_t center = streak_days_from_civil(around->year, around->month, around->day);
    int equal = 0;
    for (int round = 1; round <= rounds; round++) {
        Streak__V1__Date from, to, as_of;
        int32_t first = center - (int32_t)(next_random(&state) % 450);
        int32_t last = first + (int32_t)(next_random(&state) % 400);
        int32_t today = first + (int32_t)(next_random(&state) % 470) - 20;
        int weekday = (int)(next_random(&state) % 8); /* 0: the user's setting */
        set_date(&from, first);
        set_date(&to, last);
        set_date(&as_of, today);
        Streak__V1__WeekStart week_start = STREAK__V1__WEEK_START__INIT;
        week_start.kind_case = STREAK__V1__WEEK_START__KIND_WEEKDAY;
        week_start.weekday = (Streak__V1__Weekday)weekday;
        Streak__V1__GetHeatmapRequest request = STREAK__V1__GET_HEATMAP_REQUEST__INIT;
        request.from = &from;
        request.to = &to;
        request.as_of = &as_of;
        if (weekday != 0) request.week_start = &week_start;
        streak_status st;
        Streak__V1__GetHeatmapResponse *classic = get_heatmap(client, token, &request, &st);
        if (classic == NULL) return failed("GetHeatmap", &st);
        request.packed = 1;
        request.packed_month_labels = 1;
        Streak__V1__GetHeatmapResponse *packed = get_heatmap(client, token, &request, &st);
        if (packed == NULL) {
            streak_free_message(&classic->base);
            return failed("GetHeatmap (packed)", &st);
        }
        char d1[16], d2[16], d3[16];
        printf("round %d: %s to %s, as of %s, week start %d: ", round, day_text(first, d1), day_text(last, d2),
               day_text(today, d3), weekday);
        if (classic->heatmap != NULL && packed->packed != NULL && packed->heatmap == NULL &&
            compare(classic->heatmap, packed->packed)) {
            printf("%u days, %zu bytes packed, %zu classic: equal\n", (unsigned)packed->packed->days,
                   protobuf_c_message_get_packed_size(&packed->base),
                   protobuf_c_message_get_packed_size(&classic->base));
            equal++;
        }
        streak_free_message(&classic->base);
        streak_free_message(&packed->base);
    }
    printf("packed equals classic in %d of %d rounds\n", equal, rounds);
    return equal == rounds ? 0 : 1;
}

int main(int argc, char **argv) {
    example_options o;
    example_options_init(&o, "streak-display-example",
                         "[--from D] [--to D] [--as-of D] [--week-start 1-7] [--labels] [--list]",
                         "       streak-display-example [...] --as-of D --check SEED ROUNDS\n"
                         "       streak-display-example --decode HEX [--labels] [--list]\n");
    const char *from_arg = NULL, *to_arg = NULL, *as_of_arg = NULL, *hex = NULL;
    int week_start = 0, labels = 0, list = 0, rounds = 0;
    uint64_t seed = 0;
    for (int i = 1; i < argc; i++) {
        if (example_option(&o, argc, argv, &i)) continue;
        if (strcmp(argv[i], "--from") == 0) from_arg = example_value(&o, argc, argv, &i);
        else if (strcmp(argv[i], "--to") == 0) to_arg = example_value(&o, argc, argv, &i);
        else if (strcmp(argv[i], "--as-of") == 0) as_of_arg = example_value(&o, argc, argv, &i);
        else if (strcmp(argv[i], "--week-start") == 0) {
            /* 0: the user's setting. */
            week_start = (int)example_integer(&o, "--week-start", example_value(&o, argc, argv, &i), 0, 7);
        } else if (strcmp(argv[i], "--labels") == 0) labels = 1;
        else if (strcmp(argv[i], "--list") == 0) list = 1;
        else if (strcmp(argv[i], "--decode") == 0) hex = example_value(&o, argc, argv, &i);
        else if (strcmp(argv[i], "--check") == 0) {
            if (i + 2 >= argc) example_usage(&o, "--check needs SEED and ROUNDS");
            seed = (uint64_t)example_integer(&o, "--check's SEED", example_value(&o, argc, argv, &i), 0, INT64_MAX);
            rounds = (int)example_integer(&o, "--check's ROUNDS", example_value(&o, argc, argv, &i), 1, 1000000);
        } else example_unknown(&o, argv[i]);
    }
    if (hex != NULL) return decode_hex(&o, hex, list);
    Streak__V1__Date from, to, as_of;
    if (from_arg) example_date(&o, "--from", from_arg, &from);
    if (to_arg) example_date(&o, "--to", to_arg, &to);
    if (as_of_arg) example_date(&o, "--as-of", as_of_arg, &as_of);
    if (rounds > 0 && as_of_arg == NULL) example_usage(&o, "--check needs --as-of");
    example_options_finish(&o);
    const char *token = o.token;

    streak_status st;
    streak_client *client = example_connect(&o, DEADLINE_MS, &st);
    if (client == NULL) return failed("connect", &st);
    int rc;
    if (rounds > 0) {
        rc = check(client, token, &as_of, seed, rounds);
    } else {
        Streak__V1__GetHeatmapRequest request = STREAK__V1__GET_HEATMAP_REQUEST__INIT;
        Streak__V1__WeekStart start = STREAK__V1__WEEK_START__INIT;
        if (from_arg) request.from = &from;
        if (to_arg) request.to = &to;
        if (as_of_arg) request.as_of = &as_of;
        if (week_start != 0) {
            start.kind_case = STREAK__V1__WEEK_START__KIND_WEEKDAY;
            start.weekday = (Streak__V1__Weekday)week_start;
            request.week_start = &start;
        }
        request.packed = 1;
        request.packed_month_labels = labels;
        Streak__V1__GetHeatmapResponse *response = get_heatmap(client, token, &request, &st);
        if (response == NULL) {
            rc = failed("GetHeatmap", &st);
        } else {
            streak_packed packed;
            if (response->packed == NULL ||
                streak_packed_from_message(response->packed, &packed, error, sizeof error) != 0) {
                fprintf(stderr, "streak-display-example: %s\n",
                        response->packed == NULL ? "GetHeatmap answered without a packed heatmap" : error);
                rc = 1;
            } else {
                rc = draw(&packed, protobuf_c_message_get_packed_size(&response->base),
                          (const Streak__V1__MonthLabel *const *)response->packed->month_labels,
                          response->packed->n_month_labels, list);
            }
            streak_free_message(&response->base);
        }
    }
    streak_close(client);
    return rc;
}
