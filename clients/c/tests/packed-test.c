/* packed-test: the packed heatmap decoder's date checks (PROTOCOL.md section 9.7) on both paths,
 * streak_packed_parse and streak_packed_from_message, and at the ends of the date range. Prints
 * one line a check and "packed-test: N failed" at the end; exits 1 when any failed. Built by
 * `make tests`; run by clients/python/tests/test_c_library.py, also under
 * -fsanitize=address,undefined, where any overflow aborts it. */
#include <stdio.h>
#include <string.h>

#include "streakclient.h"

static streak_packed_day days[STREAK_PACKED_MAX_DAYS];
static int failures;

static void check(int ok, const char *what, const char *detail) {
    printf("%s: %s%s%s\n", ok ? "ok" : "FAILED", what, detail[0] ? ": " : "", detail);
    if (!ok) failures++;
}

/* A PackedHeatmap of `n` present days from..to (week start `week_start`), every day level 3,
 * 100 %, one habit active and due: decoded through both paths. expect_ok: 1 when it must decode,
 * 0 when both paths must refuse it with `reason` in the error. */
static void try_range(const char *what, int fy, int fm, int fd, int ty, int tm, int td, int week_start, uint32_t n,
                      int expect_ok, const char *reason, uint32_t expect_weeks) {
    static uint8_t levels[STREAK_PACKED_MAX_DAYS / 4 + 1], percents[STREAK_PACKED_MAX_DAYS];
    uint8_t runs[8];
    memset(levels, 0xFF, sizeof levels);
    memset(percents, 100, sizeof percents);
    if (n % 4 != 0) levels[(n + 3) / 4 - 1] = (uint8_t)((1u << (2 * (n % 4))) - 1);
    /* one run of n cells of value 1 (active) and one of value 0 (excused): varints of n * 8 + v */
    size_t runs_length = 0;
    for (uint32_t v = n * 8 + 1; ; v >>= 7) {
        runs[runs_length++] = (uint8_t)(v >= 0x80 ? (v & 0x7F) | 0x80 : v);
        if (v < 0x80) break;
    }
    uint8_t excused[8];
    size_t excused_length = 0;
    for (uint32_t v = n * 8; ; v >>= 7) {
        excused[excused_length++] = (uint8_t)(v >= 0x80 ? (v & 0x7F) | 0x80 : v);
        if (v < 0x80) break;
    }
    Streak__V1__Date from = STREAK__V1__DATE__INIT, to = STREAK__V1__DATE__INIT;
    from.year = fy; from.month = fm; from.day = fd;
    to.year = ty; to.month = tm; to.day = td;
    Streak__V1__PackedHeatmap message = STREAK__V1__PACKED_HEATMAP__INIT;
    message.from = &from;
    message.to = &to;
    message.week_start = week_start;
    message.days = n;
    message.levels.data = levels; message.levels.len = (n + 3) / 4;
    message.percents.data = percents; message.percents.len = n;
    message.active.data = runs; message.active.len = n > 0 ? runs_length : 0;
    message.excused.data = excused; message.excused.len = n > 0 ? excused_length : 0;

    static uint8_t wire[STREAK_PACKED_MAX_DAYS * 2 + 256];
    size_t wire_length = streak__v1__packed_heatmap__pack(&message, wire);
    for (int path = 0; path < 2; path++) {
        streak_packed packed;
        streak_packed_grid grid = {0, 0};
        char error[200] = "";
        int result = path == 0 ? streak_packed_from_message(&message, &packed, error, sizeof error)
                               : streak_packed_parse(wire, wire_length, &packed, error, sizeof error);
        if (result == 0) result = streak_packed_decode(&packed, days, STREAK_PACKED_MAX_DAYS, &grid, error, sizeof error);
        char label[160], detail[300];
        snprintf(label, sizeof label, "%s (%s)", what, path == 0 ? "from_message" : "parse");
        if (expect_ok) {
            int ok = result == 0 && grid.weeks == expect_weeks && packed.days == n;
            for (uint32_t i = 0; ok && i < n; i++) {
                ok = days[i].level == 3 && days[i].percent == 100 && days[i].due == 1 && days[i].completed == 1;
            }
            snprintf(detail, sizeof detail, "%s%s weeks %u", result == 0 ? "decoded" : "refused: ", error,
                     (unsigned)grid.weeks);
            check(ok, label, detail);
        } else {
            snprintf(detail, sizeof detail, "%s", result == 0 ? "accepted" : error);
            check(result != 0 && strstr(error, reason) != NULL, label, detail);
        }
    }
}

int main(void) {
    try_range("2024-03-04 to 2024-03-10", 2024, 3, 4, 2024, 3, 10, 2, 7, 1, NULL, 1);
    try_range("from 2024-02-30", 2024, 2, 30, 2024, 3, 5, 2, 5, 0, "from", 0);
    try_range("from 2023-02-29", 2023, 2, 29, 2023, 3, 5, 2, 5, 0, "from", 0);
    try_range("from 2024-13-01", 2024, 13, 1, 2025, 1, 5, 2, 5, 0, "from", 0);
    try_range("from 2024-03-00", 2024, 3, 0, 2024, 3, 5, 2, 5, 0, "from", 0);
    try_range("from 0000-00-00", 0, 0, 0, 0, 0, 3, 2, 3, 0, "from", 0);
    try_range("to 2024-04-31", 2024, 4, 1, 2024, 4, 31, 2, 5, 0, "to", 0);
    try_range("-5000000-01-01 to 5000000-01-01", -5000000, 1, 1, 5000000, 1, 1, 2, 10, 0, "from", 0);
    try_range("to 5000000-01-01", 2024, 1, 1, 5000000, 1, 1, 2, 10, 0, "to", 0);
    try_range("2000000000-01-01 to 2000000000-01-05", 2000000000, 1, 1, 2000000000, 1, 5, 2, 5, 0, "from", 0);
    try_range("10000-01-01", 10000, 1, 1, 10000, 1, 5, 2, 5, 0, "from", 0);
    try_range("a range of 7,321 days", 2000, 1, 1, 2020, 1, 16, 2, 5, 0, "range", 0);
    /* The ends of the range: the first week column starts before 0001-01-01, the last ends after
     * 9999-12-31. 9999-12-25 is a Saturday, 0001-01-01 a Monday. */
    try_range("9999-12-25 to 9999-12-31 from Monday", 9999, 12, 25, 9999, 12, 31, 2, 7, 1, NULL, 2);
    try_range("0001-01-01 to 0001-01-07 from Sunday", 1, 1, 1, 1, 1, 7, 1, 7, 1, NULL, 2);
    try_range("0001-01-01 to 0001-01-07 from Monday", 1, 1, 1, 1, 1, 7, 2, 7, 1, NULL, 1);
    try_range("0001-01-01 to 0021-01-15 (7,320 days)", 1, 1, 1, 21, 1, 15, 1, 7320, 1, NULL, 1046);
    try_range("9979-12-17 to 9999-12-31 (7,320 days)", 9979, 12, 17, 9999, 12, 31, 7, 7320, 1, NULL, 1046);

    /* A caller's own struct with day numbers far outside the range: refused, no overflow. */
    streak_packed packed = {-1826932028, 1825492972, 2, 10, (const uint8_t *)"", 0, (const uint8_t *)"", 0,
                            (const uint8_t *)"", 0, (const uint8_t *)"", 0, (const uint8_t *)"", 0};
    streak_packed_grid grid;
    char error[200] = "";
    int result = streak_packed_decode(&packed, days, STREAK_PACKED_MAX_DAYS, &grid, error, sizeof error);
    check(result != 0 && strstr(error, "outside") != NULL, "day numbers -1826932028 to 1825492972", error);
    packed.from_day = INT32_MIN;
    packed.to_day = INT32_MAX;
    result = streak_packed_decode(&packed, days, STREAK_PACKED_MAX_DAYS, &grid, error, sizeof error);
    check(result != 0, "day numbers INT32_MIN to INT32_MAX", error);

    /* The conversions are defined for any input and exact for real days. */
    int32_t y, m, d;
    streak_civil_from_days(streak_days_from_civil(9999, 12, 31), &y, &m, &d);
    check(streak_days_from_civil(9999, 12, 31) == STREAK_PACKED_LAST_DAY && y == 9999 && m == 12 && d == 31,
          "9999-12-31 round trip", "");
    streak_civil_from_days(streak_days_from_civil(1, 1, 1), &y, &m, &d);
    check(streak_days_from_civil(1, 1, 1) == STREAK_PACKED_FIRST_DAY && y == 1 && m == 1 && d == 1,
          "0001-01-01 round trip", "");
    check(streak_days_from_civil(INT32_MAX, 12, 31) == INT32_MAX && streak_days_from_civil(INT32_MIN, 1, 1) == INT32_MIN,
          "years +-2^31 saturate", "");
    streak_civil_from_days(INT32_MAX, &y, &m, &d);
    streak_civil_from_days(INT32_MIN, &y, &m, &d);
    check(streak_date_is_valid(2024, 2, 29) && !streak_date_is_valid(2100, 2, 29) && streak_date_is_valid(2000, 2, 29) &&
          !streak_date_is_valid(0, 1, 1) && !streak_date_is_valid(9999, 12, 32),
          "streak_date_is_valid", "");

    printf("packed-test: %d failed\n", failures);
    return failures == 0 ? 0 : 1;
}
