/* streak-example: records a completion for a habit (creating the habit if needed), then
 * prints the streak summary and the heatmap levels as a grid. Exits non-zero on any error.
 *
 * usage: streak-example [--server HOST:PORT] [--token TOKEN | --token-file FILE] [--tls] [--ca-file FILE]
 *                       [--tls-server-name NAME] [--insecure-plaintext] [--habit NAME] [--date YYYY-MM-DD]
 *                       [--as-of YYYY-MM-DD]
 * The connection options and their defaults are example-options.h's; habit "Read", today.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "example-options.h"
#include "streakclient.h"

#define DEADLINE_MS 5000

static const char *date_text(const Streak__V1__Date *d, char buffer[16]) {
    if (d == NULL) return "-";
    snprintf(buffer, 16, "%04d-%02d-%02d", (int)d->year % 100000, (int)d->month % 100, (int)d->day % 100);
    return buffer;
}

static int failed(const char *what, const streak_status *st) {
    fprintf(stderr, "streak-example: %s failed: %s (%d): %s\n", what, streak_code_name(st->code), st->code,
            st->message);
    return 1;
}

static const char *weekday_name(int weekday) {
    static const char *const names[] = {"?", "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday",
                                        "Friday", "Saturday"};
    return weekday >= 1 && weekday <= 7 ? names[weekday] : "?";
}

int main(int argc, char **argv) {
    example_options o;
    example_options_init(&o, "streak-example", "[--habit NAME] [--date YYYY-MM-DD] [--as-of YYYY-MM-DD]", NULL);
    const char *habit_name = "Read", *date_arg = NULL, *as_of_arg = NULL;
    for (int i = 1; i < argc; i++) {
        if (example_option(&o, argc, argv, &i)) continue;
        if (strcmp(argv[i], "--habit") == 0) habit_name = example_value(&o, argc, argv, &i);
        else if (strcmp(argv[i], "--date") == 0) date_arg = example_value(&o, argc, argv, &i);
        else if (strcmp(argv[i], "--as-of") == 0) as_of_arg = example_value(&o, argc, argv, &i);
        else example_unknown(&o, argv[i]);
    }
    Streak__V1__Date date, as_of;
    if (date_arg) example_date(&o, "--date", date_arg, &date);
    if (as_of_arg) example_date(&o, "--as-of", as_of_arg, &as_of);
    example_options_finish(&o);
    const char *token = o.token;

    streak_status st;
    streak_client *client = example_connect(&o, DEADLINE_MS, &st);
    if (client == NULL) return failed("connect", &st);
    int rc = 1;
    char d1[16], d2[16], d3[16];
    Streak__V1__ListHabitsResponse *list = NULL;
    Streak__V1__CreateHabitResponse *created = NULL;
    Streak__V1__CompletionResponse *done = NULL;
    Streak__V1__GetHeatmapResponse *heat = NULL;

    /* 1. Find the habit by name, or create it (created on the completion's day, if given). */
    Streak__V1__ListHabitsRequest list_req = STREAK__V1__LIST_HABITS_REQUEST__INIT;
    if (streak_call(client, "ListHabits", token, DEADLINE_MS, &list_req.base,
                    &streak__v1__list_habits_response__descriptor, (ProtobufCMessage **)&list, &st) != STREAK_OK) {
        failed("ListHabits", &st);
        goto out;
    }
    int64_t habit_id = 0;
    for (size_t i = 0; i < list->n_habits; i++) {
        if (strcmp(list->habits[i]->name, habit_name) == 0) habit_id = list->habits[i]->id;
    }
    if (habit_id == 0) {
        Streak__V1__CreateHabitRequest create_req = STREAK__V1__CREATE_HABIT_REQUEST__INIT;
        create_req.name = (char *)habit_name;
        if (date_arg) create_req.created_on = &date;
        if (streak_call(client, "CreateHabit", token, DEADLINE_MS, &create_req.base,
                        &streak__v1__create_habit_response__descriptor, (ProtobufCMessage **)&created,
                        &st) != STREAK_OK) {
            failed("CreateHabit", &st);
            goto out;
        }
        habit_id = created->habit->id;
        printf("created habit \"%s\" (id %lld)\n", habit_name, (long long)habit_id);
    }

    /* 2. Record the completion: the answer carries the day record and the streak. */
    Streak__V1__RecordCompletionRequest record_req = STREAK__V1__RECORD_COMPLETION_REQUEST__INIT;
    record_req.habit_id = habit_id;
    if (date_arg) record_req.date = &date;
    if (as_of_arg) record_req.as_of = &as_of;
    if (streak_call(client, "RecordCompletion", token, DEADLINE_MS, &record_req.base,
                    &streak__v1__completion_response__descriptor, (ProtobufCMessage **)&done, &st) != STREAK_OK) {
        failed("RecordCompletion", &st);
        goto out;
    }
    const Streak__V1__DayRecord *day = done->day;
    const Streak__V1__StreakSummary *streak = done->streak;
    if (day == NULL || streak == NULL) {
        fprintf(stderr, "streak-example: RecordCompletion answered without a day or streak\n");
        goto out;
    }
    printf("recorded \"%s\" on %s (%s)\n", habit_name, date_text(day->date, d1),
           done->changed ? "new" : "already recorded");
    /* completed of due (the habits expected that day: done, or scheduled and not excused), as the
     * percent and the server's label count them; not of active. */
    printf("day %s: %d of %d habit%s, %d%%, level %d%s\n", date_text(day->date, d1), (int)day->completed,
           (int)day->due, day->due == 1 ? "" : "s", (int)day->percent, (int)day->level,
           day->contributing ? ", contributing" : "");
    printf("streak: current %d day%s", (int)streak->current, streak->current == 1 ? "" : "s");
    if (streak->current > 0) printf(" (since %s)", date_text(streak->current_start, d1));
    printf(", longest %d day%s", (int)streak->longest, streak->longest == 1 ? "" : "s");
    if (streak->longest > 0) {
        printf(" (%s to %s)", date_text(streak->longest_start, d2), date_text(streak->longest_end, d3));
    }
    printf(", as of %s%s\n", date_text(streak->as_of, d1), streak->today_pending ? ", today pending" : "");

    /* 3. The heatmap (default range: from the 1st of the month 11 months back through as_of) as a grid of levels. */
    Streak__V1__GetHeatmapRequest heat_req = STREAK__V1__GET_HEATMAP_REQUEST__INIT;
    if (as_of_arg) heat_req.as_of = &as_of;
    if (streak_call(client, "GetHeatmap", token, DEADLINE_MS, &heat_req.base,
                    &streak__v1__get_heatmap_response__descriptor, (ProtobufCMessage **)&heat, &st) != STREAK_OK) {
        failed("GetHeatmap", &st);
        goto out;
    }
    const Streak__V1__Heatmap *map = heat->heatmap;
    if (map == NULL) {
        fprintf(stderr, "streak-example: GetHeatmap answered without a heatmap\n");
        goto out;
    }
    printf("heatmap %s to %s: %zu weeks starting %s; levels 0-3, '.' absent\n", date_text(map->from, d1),
           date_text(map->to, d2), map->n_weeks, weekday_name(map->week_start));
    /* Month labels on top: each label at its week's column. */
    size_t columns = map->n_weeks;
    char *labels = malloc(columns + 8);
    if (labels != NULL) {
        memset(labels, ' ', columns + 7);
        labels[columns + 7] = '\0';
        for (size_t i = 0; i < map->n_month_labels; i++) {
            const Streak__V1__MonthLabel *label = map->month_labels[i];
            size_t at = (size_t)label->week_index;
            for (size_t k = 0; label->label[k] != '\0' && at + k < columns + 7; k++) labels[at + k] = label->label[k];
        }
        size_t end = columns + 7;
        while (end > 0 && labels[end - 1] == ' ') labels[--end] = '\0';
        printf("    %s\n", labels);
        free(labels);
    }
    for (int row = 0; row < 7; row++) {
        int weekday = ((int)map->week_start - 1 + row) % 7 + 1;
        printf("%.3s ", map->week_start >= 1 ? weekday_name(weekday) : "?");
        for (size_t w = 0; w < columns; w++) {
            const Streak__V1__HeatmapWeek *week = map->weeks[w];
            char cell = '?';
            if ((size_t)row < week->n_cells) {
                const Streak__V1__HeatmapCell *c = week->cells[row];
                cell = c->present ? (char)('0' + (c->level >= 0 && c->level <= 3 ? c->level : 0)) : '.';
            }
            putchar(cell);
        }
        putchar('\n');
    }
    rc = 0;
out:
    streak_free_message((ProtobufCMessage *)list);
    streak_free_message((ProtobufCMessage *)created);
    streak_free_message((ProtobufCMessage *)done);
    streak_free_message((ProtobufCMessage *)heat);
    streak_close(client);
    return rc;
}
