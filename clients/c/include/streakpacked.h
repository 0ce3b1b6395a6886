/* streakpacked: the compact heatmap of docs/PROTOCOL.md section 9, decoded in fixed memory.
 *
 * No malloc and no protobuf-c: this header and src/streakpacked.c are all a microcontroller needs
 * to turn the bytes of a PackedHeatmap into the days it draws. The caller owns every buffer; the
 * decoder only points into the message it is given and writes into the array it is given.
 *
 *   static streak_packed_day days[366];     (a year; STREAK_PACKED_MAX_DAYS for any range)
 *   streak_packed packed;
 *   streak_packed_grid grid;
 *   char error[128];
 *   if (streak_packed_parse(bytes, length, &packed, error, sizeof error) != 0 ||
 *       streak_packed_decode(&packed, days, 366, &grid, error, sizeof error) != 0)
 *       report(error);
 *   day i (0 ... packed.days - 1) is packed.from_day + i, drawn in row (grid.lead + i) % 7 and
 *   column (grid.lead + i) / 7; every other cell of the grid.weeks columns is absent.
 */
#ifndef STREAKPACKED_H
#define STREAKPACKED_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The longest range a heatmap spans: 20 x 366 days. */
#define STREAK_PACKED_MAX_DAYS 7320

/* Civil dates as day numbers: days since 1970-01-01 (negative before it), proleptic Gregorian.
 * Defined for every int32_t input (no overflow); the results are meant for real days. */
int32_t streak_days_from_civil(int32_t year, int32_t month, int32_t day);
void streak_civil_from_days(int32_t days, int32_t *year, int32_t *month, int32_t *day);
/* The day numbers of 0001-01-01 and 9999-12-31, the protocol's first and last days. */
#define STREAK_PACKED_FIRST_DAY (-719162)
#define STREAK_PACKED_LAST_DAY 2932896
/* 1 when year-month-day is a real day in 0001-01-01...9999-12-31 (the protocol's dates), else 0.
 * streak_days_from_civil is exact for those; check a date from the wire with this first. */
int streak_date_is_valid(int64_t year, int64_t month, int64_t day);
/* The weekday of a day number: 1 = Sunday ... 7 = Saturday (the protocol's numbering). */
int streak_weekday_of(int32_t days);

/* What a PackedHeatmap carries. The byte fields point into the message (nothing is copied). */
typedef struct {
    int32_t from_day;          /* the range's first day */
    int32_t to_day;            /* its last day */
    int week_start;            /* 1 = Sunday ... 7 = Saturday: the weekday of each column's first row */
    uint32_t days;             /* present days: from_day, from_day + 1, ..., from_day + days - 1 */
    const uint8_t *levels;     /* 2 bits a day, date order, low bits first: (days + 3) / 4 bytes */
    size_t n_levels;
    const uint8_t *percents;   /* 1 byte a day, date order: `days` bytes */
    size_t n_percents;
    const uint8_t *active;     /* runs in row order: a varint length * 8 + value (7: value follows) */
    size_t n_active;
    const uint8_t *excused;    /* runs of active - due, in row order */
    size_t n_excused;
    const uint8_t *exceptions; /* varint pairs (day index, completed) */
    size_t n_exceptions;
} streak_packed;

/* One present day, as the classic HeatmapCell has it. */
typedef struct {
    uint32_t active;
    uint32_t due;
    uint32_t completed;
    uint8_t level;    /* 0...3 */
    uint8_t percent;  /* 0...100 */
    uint8_t rest;     /* 1: a rest day (active > 0, due == 0): draw it neutral */
} streak_packed_day;

/* Where the days sit in the week columns. */
typedef struct {
    int lead;         /* the row of from_day (0 = the week start's weekday) */
    uint32_t weeks;   /* columns, from the week holding from_day to the week holding to_day */
} streak_packed_grid;

/* Reads a PackedHeatmap from its protobuf encoding (fields 1 to 9; month labels and unknown fields
 * are skipped). Returns 0, or -1 with the reason in `error` (which may be NULL). */
int streak_packed_parse(const uint8_t *message, size_t length, streak_packed *out, char *error, size_t error_size);

/* Finds the length-delimited field `field` of a protobuf message (the last one wins, as protobuf
 * says), e.g. field 2 of a GetHeatmapResponse or 3 of a BuildHeatmapResponse: the packed heatmap.
 * Returns 1 and points *value at it, 0 when absent, -1 on malformed bytes. */
int streak_protobuf_field(const uint8_t *message, size_t length, uint32_t field, const uint8_t **value,
                          size_t *value_length);

/* Decodes every present day into days[0 ... packed->days - 1]; `capacity` is the array's length.
 * Checks everything section 9 requires. Returns 0, or -1 with the reason in `error`. */
int streak_packed_decode(const streak_packed *packed, streak_packed_day *days, size_t capacity,
                         streak_packed_grid *grid, char *error, size_t error_size);

/* The level of present day `index` straight from the levels bytes, for a client that draws levels
 * only (check the lengths with streak_packed_decode once, or yourself). */
static inline int streak_packed_level(const streak_packed *packed, uint32_t index) {
    return (packed->levels[index >> 2] >> (2 * (index & 3))) & 3;
}

#ifdef __cplusplus
}
#endif

#endif /* STREAKPACKED_H */
