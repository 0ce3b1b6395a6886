/* Typed calls for schedules, skips and rest periods, over streak_call. */
#include <stdlib.h>

#include "streakclient.h"

/* The deadline of these calls, in milliseconds. */
#define SCHEDULE_DEADLINE_MS 10000

streak_code streak_set_habit_schedule(streak_client *client, const char *token, int64_t habit_id,
                                      const int *weekdays, size_t n_weekdays, const Streak__V1__Date *from,
                                      Streak__V1__SetHabitScheduleResponse **response, streak_status *status) {
    Streak__V1__WeekdaySet set = STREAK__V1__WEEKDAY_SET__INIT;
    Streak__V1__Weekday days[7];
    if (n_weekdays > 7) n_weekdays = 7;
    for (size_t i = 0; i < n_weekdays; i++) days[i] = (Streak__V1__Weekday)weekdays[i];
    set.n_weekdays = n_weekdays;
    set.weekdays = days;
    Streak__V1__SetHabitScheduleRequest request = STREAK__V1__SET_HABIT_SCHEDULE_REQUEST__INIT;
    request.habit_id = habit_id;
    request.weekdays = &set;
    request.effective_from = (Streak__V1__Date *)from;
    return streak_call(client, "SetHabitSchedule", token, SCHEDULE_DEADLINE_MS, &request.base,
                       &streak__v1__set_habit_schedule_response__descriptor, (ProtobufCMessage **)response, status);
}

streak_code streak_skip_habit(streak_client *client, const char *token, int64_t habit_id,
                              const Streak__V1__Date *date, const Streak__V1__Date *as_of, int skip,
                              Streak__V1__CompletionResponse **response, streak_status *status) {
    /* SkipHabitRequest and UnskipHabitRequest have the same fields and numbers. */
    Streak__V1__SkipHabitRequest request = STREAK__V1__SKIP_HABIT_REQUEST__INIT;
    Streak__V1__UnskipHabitRequest unskip = STREAK__V1__UNSKIP_HABIT_REQUEST__INIT;
    request.habit_id = unskip.habit_id = habit_id;
    request.date = unskip.date = (Streak__V1__Date *)date;
    request.as_of = unskip.as_of = (Streak__V1__Date *)as_of;
    return streak_call(client, skip ? "SkipHabit" : "UnskipHabit", token, SCHEDULE_DEADLINE_MS,
                       skip ? &request.base : &unskip.base, &streak__v1__completion_response__descriptor,
                       (ProtobufCMessage **)response, status);
}

streak_code streak_add_rest_period(streak_client *client, const char *token, const Streak__V1__Date *from,
                                   const Streak__V1__Date *to, const char *note,
                                   Streak__V1__AddRestPeriodResponse **response, streak_status *status) {
    Streak__V1__AddRestPeriodRequest request = STREAK__V1__ADD_REST_PERIOD_REQUEST__INIT;
    request.from = (Streak__V1__Date *)from;
    request.to = (Streak__V1__Date *)to;
    if (note != NULL) request.note = (char *)note;
    return streak_call(client, "AddRestPeriod", token, SCHEDULE_DEADLINE_MS, &request.base,
                       &streak__v1__add_rest_period_response__descriptor, (ProtobufCMessage **)response, status);
}

streak_code streak_list_rest_periods(streak_client *client, const char *token,
                                     Streak__V1__ListRestPeriodsResponse **response, streak_status *status) {
    Streak__V1__ListRestPeriodsRequest request = STREAK__V1__LIST_REST_PERIODS_REQUEST__INIT;
    return streak_call(client, "ListRestPeriods", token, SCHEDULE_DEADLINE_MS, &request.base,
                       &streak__v1__list_rest_periods_response__descriptor, (ProtobufCMessage **)response, status);
}

streak_code streak_remove_rest_period(streak_client *client, const char *token, int64_t id,
                                      Streak__V1__RemoveRestPeriodResponse **response, streak_status *status) {
    Streak__V1__RemoveRestPeriodRequest request = STREAK__V1__REMOVE_REST_PERIOD_REQUEST__INIT;
    request.id = id;
    return streak_call(client, "RemoveRestPeriod", token, SCHEDULE_DEADLINE_MS, &request.base,
                       &streak__v1__remove_rest_period_response__descriptor, (ProtobufCMessage **)response, status);
}
