/* Schedules, skips and rest periods from C: a habit expected on Monday, Wednesday and Friday,
 * a skip, a rest period listed and removed, and the streak after each step.
 *
 * usage: streak-schedule-example [--server HOST:PORT] [--token TOKEN | --token-file FILE] [--tls]
 *                                [--ca-file FILE] [--tls-server-name NAME]
 * The connection options and their defaults are example-options.h's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "example-options.h"
#include "streakclient.h"

static int failed(const char *what, const streak_status *st) {
    fprintf(stderr, "streak-schedule-example: %s: %s (%d): %s\n", what, streak_code_name(st->code), st->code,
            st->message);
    return 1;
}

static void print_day(const char *what, const Streak__V1__CompletionResponse *r) {
    printf("%s: day %04d-%02d-%02d due %d, done %d, rest %s; streak %d\n", what, r->day->date->year,
           r->day->date->month, r->day->date->day, (int)r->day->due, (int)r->day->completed,
           r->day->rest ? "yes" : "no", (int)r->streak->current);
}

int main(int argc, char **argv) {
    example_options o;
    example_options_init(&o, "streak-schedule-example", NULL, NULL);
    for (int i = 1; i < argc; i++) {
        if (!example_option(&o, argc, argv, &i)) example_unknown(&o, argv[i]);
    }
    example_options_finish(&o);
    const char *token = o.token;
    streak_status st;
    streak_client *client = example_connect(&o, 10000, &st);
    if (client == NULL) return failed("connect", &st);

    int rc = 1;
    Streak__V1__CreateHabitResponse *created = NULL;
    Streak__V1__SetHabitScheduleResponse *scheduled = NULL;
    Streak__V1__CompletionResponse *done = NULL, *skipped = NULL;
    Streak__V1__AddRestPeriodResponse *added = NULL;
    Streak__V1__ListRestPeriodsResponse *listed = NULL;
    Streak__V1__RemoveRestPeriodResponse *removed = NULL;
    Streak__V1__Date monday = STREAK__V1__DATE__INIT, tuesday, wednesday, as_of, rest_to;
    monday.year = 2024, monday.month = 1, monday.day = 1; /* a Monday */
    tuesday = wednesday = as_of = rest_to = monday;
    tuesday.day = 2, wednesday.day = 3, as_of.day = 8, rest_to.day = 7;

    Streak__V1__CreateHabitRequest create = STREAK__V1__CREATE_HABIT_REQUEST__INIT;
    create.name = "Gym";
    create.created_on = &monday;
    if (streak_call(client, "CreateHabit", token, 10000, &create.base, &streak__v1__create_habit_response__descriptor,
                    (ProtobufCMessage **)&created, &st) != STREAK_OK) {
        failed("CreateHabit", &st);
        goto out;
    }
    int64_t id = created->habit->id;
    const int mwf[] = {2, 4, 6};
    if (streak_set_habit_schedule(client, token, id, mwf, 3, &monday, &scheduled, &st) != STREAK_OK) {
        failed("SetHabitSchedule", &st);
        goto out;
    }
    printf("schedule: %zu weekdays from %04d-%02d-%02d\n", scheduled->habit->schedule[0]->n_weekdays,
           scheduled->habit->schedule[0]->effective_from->year, scheduled->habit->schedule[0]->effective_from->month,
           scheduled->habit->schedule[0]->effective_from->day);
    Streak__V1__RecordCompletionRequest record = STREAK__V1__RECORD_COMPLETION_REQUEST__INIT;
    record.habit_id = id;
    record.date = &monday;
    record.as_of = &tuesday;
    if (streak_call(client, "RecordCompletion", token, 10000, &record.base,
                    &streak__v1__completion_response__descriptor, (ProtobufCMessage **)&done, &st) != STREAK_OK) {
        failed("RecordCompletion", &st);
        goto out;
    }
    print_day("done", done);
    if (streak_skip_habit(client, token, id, &wednesday, &as_of, 1, &skipped, &st) != STREAK_OK) {
        failed("SkipHabit", &st);
        goto out;
    }
    print_day("skipped", skipped);
    if (streak_add_rest_period(client, token, &wednesday, &rest_to, "travel", &added, &st) != STREAK_OK) {
        failed("AddRestPeriod", &st);
        goto out;
    }
    if (streak_list_rest_periods(client, token, &listed, &st) != STREAK_OK) {
        failed("ListRestPeriods", &st);
        goto out;
    }
    printf("rest periods: %zu, the first \"%s\"\n", listed->n_rest_periods,
           listed->n_rest_periods ? listed->rest_periods[0]->note : "");
    if (streak_remove_rest_period(client, token, added->rest_period->id, &removed, &st) != STREAK_OK) {
        failed("RemoveRestPeriod", &st);
        goto out;
    }
    printf("removed rest period %lld\n", (long long)removed->rest_period->id);
    streak_free_message((ProtobufCMessage *)removed);
    removed = NULL;
    if (streak_remove_rest_period(client, token, added->rest_period->id, &removed, &st) == STREAK_OK) goto out;
    printf("removing it again: %s\n", streak_code_name(st.code));
    rc = 0;
out:
    streak_free_message((ProtobufCMessage *)created);
    streak_free_message((ProtobufCMessage *)scheduled);
    streak_free_message((ProtobufCMessage *)done);
    streak_free_message((ProtobufCMessage *)skipped);
    streak_free_message((ProtobufCMessage *)added);
    streak_free_message((ProtobufCMessage *)listed);
    streak_free_message((ProtobufCMessage *)removed);
    streak_close(client);
    return rc;
}
