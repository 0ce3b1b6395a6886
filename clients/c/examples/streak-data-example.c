/* streak-data-example: your data from C. Exports everything (ExportData, page by page) and prints
 * the counts; copies an account into another one (export, then ImportData); archives, unarchives
 * and deletes habits. Exits 1 on any error, with `CODE_NAME (n): message` on stderr.
 *
 * usage: streak-data-example [--server HOST:PORT] [--token TOKEN | --token-file FILE] [--tls]
 *                            [--ca-file FILE] [--tls-server-name NAME] COMMAND
 *   export [--page-size N]                      every page, every habit and the totals
 *   copy --to-token-file FILE [--page-size N] [--chunk DATES]
 *                                               export, then import it all into FILE's account, in
 *                                               requests of at most DATES completions and skips
 *                                               (default 20,000)
 *   archive ID DATE | unarchive ID | delete ID
 * The connection options and their defaults are example-options.h's; they may come before or
 * after the command.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "example-options.h"
#include "streakclient.h"

#define DEADLINE_MS 10000
/* An import can take a while: a minute per request. */
#define IMPORT_DEADLINE_MS 60000

static const char *date_text(const Streak__V1__Date *d, char buffer[16]) {
    if (d == NULL) return "-";
    snprintf(buffer, 16, "%04d-%02d-%02d", (int)d->year % 100000, (int)d->month % 100, (int)d->day % 100);
    return buffer;
}

static int failed(const char *what, const streak_status *st) {
    fprintf(stderr, "streak-data-example: %s failed: %s (%d): %s\n", what, streak_code_name(st->code), st->code,
            st->message);
    return 1;
}

/* ---- an export, collected --------------------------------------------------------------- */

/* Dates in a growing array. */
typedef struct {
    Streak__V1__Date *items;
    size_t count, capacity;
} date_list;

static int add_date(date_list *list, const Streak__V1__Date *date) {
    if (list->count == list->capacity) {
        size_t capacity = list->capacity ? list->capacity * 2 : 16;
        Streak__V1__Date *items = realloc(list->items, capacity * sizeof *items);
        if (items == NULL) return -1;
        list->items = items;
        list->capacity = capacity;
    }
    streak__v1__date__init(&list->items[list->count]);
    list->items[list->count].year = date->year;
    list->items[list->count].month = date->month;
    list->items[list->count].day = date->day;
    list->count++;
    return 0;
}

/* A habit of the export with its history (pages are freed after the page function: copied). */
typedef struct {
    int64_t id;
    char *name;
    Streak__V1__Date created_on, archived_on;
    int archived;
    size_t n_schedule;
    Streak__V1__Date *schedule_from;   /* n_schedule effective_from dates */
    Streak__V1__Weekday (*schedule_days)[7];
    size_t *schedule_n_days;
    date_list completions, skips;
} habit_copy;

typedef struct {
    char *note;
    Streak__V1__Date from, to;
} rest_copy;

typedef struct {
    int print_pages;
    int pages;
    int64_t total_records;
    int has_settings;
    Streak__V1__Settings settings;
    char *time_zone, *locale;
    size_t n_habits;
    habit_copy *habits;
    size_t n_rest;
    rest_copy *rest;
    size_t completions, skips;
    const char *error; /* set when the pages do not add up */
} export_copy;

static habit_copy *find_habit(export_copy *copy, int64_t id) {
    /* The first page lists the habits ascending by id. */
    size_t low = 0, high = copy->n_habits;
    while (low < high) {
        size_t mid = (low + high) / 2;
        if (copy->habits[mid].id < id) low = mid + 1;
        else high = mid;
    }
    return low < copy->n_habits && copy->habits[low].id == id ? &copy->habits[low] : NULL;
}

static void copy_date(Streak__V1__Date *to, const Streak__V1__Date *from) {
    streak__v1__date__init(to);
    if (from != NULL) {
        to->year = from->year;
        to->month = from->month;
        to->day = from->day;
    }
}

static int first_page(export_copy *copy, const Streak__V1__ExportDataPage *page) {
    copy->total_records = page->total_records;
    if (page->settings != NULL) {
        copy->has_settings = 1;
        streak__v1__settings__init(&copy->settings);
        copy->time_zone = strdup(page->settings->time_zone);
        copy->locale = strdup(page->settings->locale);
        if (copy->time_zone == NULL || copy->locale == NULL) return -1;
        copy->settings.time_zone = copy->time_zone;
        copy->settings.locale = copy->locale;
        copy->settings.week_start = page->settings->week_start;
        copy->settings.min_percent = page->settings->min_percent;
        copy->settings.day_start_minutes = page->settings->day_start_minutes;
    }
    copy->habits = calloc(page->n_habits ? page->n_habits : 1, sizeof *copy->habits);
    copy->rest = calloc(page->n_rest_periods ? page->n_rest_periods : 1, sizeof *copy->rest);
    if (copy->habits == NULL || copy->rest == NULL) return -1;
    for (size_t i = 0; i < page->n_habits; i++) {
        const Streak__V1__Habit *from = page->habits[i];
        habit_copy *h = &copy->habits[copy->n_habits++];
        h->id = from->id;
        h->name = strdup(from->name);
        if (h->name == NULL) return -1;
        copy_date(&h->created_on, from->created_on);
        h->archived = from->archived_on != NULL;
        copy_date(&h->archived_on, from->archived_on);
        h->n_schedule = from->n_schedule;
        size_t n = from->n_schedule ? from->n_schedule : 1;
        h->schedule_from = calloc(n, sizeof *h->schedule_from);
        h->schedule_days = calloc(n, sizeof *h->schedule_days);
        h->schedule_n_days = calloc(n, sizeof *h->schedule_n_days);
        if (h->schedule_from == NULL || h->schedule_days == NULL || h->schedule_n_days == NULL) return -1;
        for (size_t e = 0; e < from->n_schedule; e++) {
            copy_date(&h->schedule_from[e], from->schedule[e]->effective_from);
            size_t days = from->schedule[e]->n_weekdays < 7 ? from->schedule[e]->n_weekdays : 7;
            for (size_t d = 0; d < days; d++) h->schedule_days[e][d] = from->schedule[e]->weekdays[d];
            h->schedule_n_days[e] = days;
        }
    }
    for (size_t i = 0; i < page->n_rest_periods; i++) {
        rest_copy *r = &copy->rest[copy->n_rest++];
        r->note = strdup(page->rest_periods[i]->note);
        if (r->note == NULL) return -1;
        copy_date(&r->from, page->rest_periods[i]->from);
        copy_date(&r->to, page->rest_periods[i]->to);
    }
    return 0;
}

static int on_page(const Streak__V1__ExportDataPage *page, void *context) {
    export_copy *copy = context;
    if (++copy->pages == 1 && first_page(copy, page) != 0) {
        copy->error = "out of memory";
        return 1;
    }
    for (size_t i = 0; i < page->n_completions; i++) {
        habit_copy *h = find_habit(copy, page->completions[i]->habit_id);
        if (h == NULL || page->completions[i]->date == NULL) {
            copy->error = "a completion of a habit the export does not have";
            return 1;
        }
        if (add_date(&h->completions, page->completions[i]->date) != 0) {
            copy->error = "out of memory";
            return 1;
        }
    }
    for (size_t i = 0; i < page->n_skips; i++) {
        habit_copy *h = find_habit(copy, page->skips[i]->habit_id);
        if (h == NULL || page->skips[i]->date == NULL) {
            copy->error = "a skip of a habit the export does not have";
            return 1;
        }
        if (add_date(&h->skips, page->skips[i]->date) != 0) {
            copy->error = "out of memory";
            return 1;
        }
    }
    copy->completions += page->n_completions;
    copy->skips += page->n_skips;
    if (copy->print_pages) {
        if (copy->pages == 1) {
            printf("page 1: %s, habits %zu, rest periods %zu, completions %zu, skips %zu, of %lld records%s\n",
                   page->settings != NULL ? "settings" : "no settings", page->n_habits, page->n_rest_periods,
                   page->n_completions, page->n_skips, (long long)page->total_records, page->last ? ", last" : "");
        } else {
            printf("page %d: completions %zu, skips %zu%s\n", copy->pages, page->n_completions, page->n_skips,
                   page->last ? ", last" : "");
        }
    }
    return 0;
}

static void free_copy(export_copy *copy) {
    for (size_t i = 0; i < copy->n_habits; i++) {
        habit_copy *h = &copy->habits[i];
        free(h->name);
        free(h->schedule_from);
        free(h->schedule_days);
        free(h->schedule_n_days);
        free(h->completions.items);
        free(h->skips.items);
    }
    for (size_t i = 0; i < copy->n_rest; i++) free(copy->rest[i].note);
    free(copy->habits);
    free(copy->rest);
    free(copy->time_zone);
    free(copy->locale);
}

/* Exports the account into *copy; prints every page when print_pages. Returns 0 or 1 (printed). */
static int export_all(streak_client *client, const char *token, int page_size, export_copy *copy) {
    streak_status st;
    if (streak_export_data(client, token, page_size, 0, on_page, copy, &st) != STREAK_OK) {
        if (copy->error != NULL) {
            fprintf(stderr, "streak-data-example: ExportData: %s\n", copy->error);
            return 1;
        }
        return failed("ExportData", &st);
    }
    return 0;
}

static void print_totals(const export_copy *copy) {
    size_t archived = 0;
    char created[16], until[16];
    for (size_t i = 0; i < copy->n_habits; i++) {
        const habit_copy *h = &copy->habits[i];
        archived += h->archived != 0;
        printf("habit \"%s\": completions %zu, skips %zu, created %s", h->name, h->completions.count, h->skips.count,
               date_text(&h->created_on, created));
        if (h->archived) printf(", archived %s", date_text(&h->archived_on, until));
        if (h->n_schedule > 0) printf(", schedule entries %zu", h->n_schedule);
        printf("\n");
    }
    printf("total: pages %d, habits %zu (archived %zu), rest periods %zu, completions %zu, skips %zu\n", copy->pages,
           copy->n_habits, archived, copy->n_rest, copy->completions, copy->skips);
}

/* ---- the import of an export ------------------------------------------------------------ */

/* What one ImportHabit points at: protobuf-c's repeated message fields are arrays of pointers. */
typedef struct {
    Streak__V1__ScheduleEntry *entries;
    Streak__V1__ScheduleEntry **entry_list;
    Streak__V1__Date **completions, **skips;
} import_arrays;

/* Imports `copy` into the account of `token` in requests of at most `chunk` completions and skips
 * (the server's 16 MiB decoding budget holds about 120,000 dates a request, PROTOCOL.md section 7;
 * the Swift CLI sends 20,000): the settings and rest periods go with the first request, every
 * habit with its schedule in each request that carries some of its dates, so a habit split over
 * requests is matched by name in the later ones. The counts printed are the requests' sums. */
static int import_copy(streak_client *client, const char *token, const export_copy *copy, size_t chunk) {
    int rc = 1;
    size_t n = copy->n_habits + 1, m = copy->n_rest + 1;
    /* A habit is split at most once per request: parts <= habits + records / chunk + 1. */
    size_t max_parts = copy->n_habits + (copy->completions + copy->skips) / chunk + 2;
    Streak__V1__ImportHabit *parts = calloc(max_parts, sizeof *parts);
    Streak__V1__ImportHabit **part_list = calloc(max_parts, sizeof *part_list);
    size_t *part_habit = calloc(max_parts, sizeof *part_habit);
    size_t *request_start = calloc(max_parts + 1, sizeof *request_start);
    import_arrays *arrays = calloc(n, sizeof *arrays);
    Streak__V1__RestPeriod *rest = calloc(m, sizeof *rest);
    Streak__V1__RestPeriod **rest_list = calloc(m, sizeof *rest_list);
    Streak__V1__ImportDataResponse *response = NULL;
    if (parts == NULL || part_list == NULL || part_habit == NULL || request_start == NULL || arrays == NULL ||
        rest == NULL || rest_list == NULL) {
        goto oom;
    }

    size_t n_parts = 0, n_requests = 0, count = 0;
    for (size_t i = 0; i < copy->n_habits; i++) {
        const habit_copy *h = &copy->habits[i];
        import_arrays *a = &arrays[i];
        a->entries = calloc(h->n_schedule + 1, sizeof *a->entries);
        a->entry_list = calloc(h->n_schedule + 1, sizeof *a->entry_list);
        a->completions = calloc(h->completions.count + 1, sizeof *a->completions);
        a->skips = calloc(h->skips.count + 1, sizeof *a->skips);
        if (a->entries == NULL || a->entry_list == NULL || a->completions == NULL || a->skips == NULL) goto oom;
        for (size_t e = 0; e < h->n_schedule; e++) {
            streak__v1__schedule_entry__init(&a->entries[e]);
            a->entries[e].effective_from = &h->schedule_from[e];
            a->entries[e].n_weekdays = h->schedule_n_days[e];
            a->entries[e].weekdays = h->schedule_days[e];
            a->entry_list[e] = &a->entries[e];
        }
        for (size_t d = 0; d < h->completions.count; d++) a->completions[d] = &h->completions.items[d];
        for (size_t d = 0; d < h->skips.count; d++) a->skips[d] = &h->skips.items[d];
        size_t done_completions = 0, done_skips = 0;
        do {
            size_t room = count < chunk ? chunk - count : 1;
            size_t take_completions = h->completions.count - done_completions;
            if (take_completions > room) take_completions = room;
            size_t take_skips = h->skips.count - done_skips;
            if (take_skips > room - take_completions) take_skips = room - take_completions;
            Streak__V1__ImportHabit *ih = &parts[n_parts];
            streak__v1__import_habit__init(ih);
            ih->name = h->name;
            ih->created_on = (Streak__V1__Date *)&h->created_on;
            if (h->archived) ih->archived_on = (Streak__V1__Date *)&h->archived_on;
            ih->n_schedule = h->n_schedule;
            ih->schedule = a->entry_list;
            ih->n_completions = take_completions;
            ih->completions = a->completions + done_completions;
            ih->n_skips = take_skips;
            ih->skips = a->skips + done_skips;
            part_list[n_parts] = ih;
            part_habit[n_parts++] = i;
            done_completions += take_completions;
            done_skips += take_skips;
            count += take_completions + take_skips;
            if (count >= chunk) {
                request_start[++n_requests] = n_parts;
                count = 0;
            }
        } while (done_completions < h->completions.count || done_skips < h->skips.count);
    }
    if (n_requests == 0 || request_start[n_requests] < n_parts) request_start[++n_requests] = n_parts;
    for (size_t i = 0; i < copy->n_rest; i++) {
        streak__v1__rest_period__init(&rest[i]);
        rest[i].from = (Streak__V1__Date *)&copy->rest[i].from;
        rest[i].to = (Streak__V1__Date *)&copy->rest[i].to;
        rest[i].note = copy->rest[i].note;
        rest_list[i] = &rest[i];
    }

    int created = 0, matched = 0, completions = 0, skips = 0, rest_added = 0, schedules = 0, settings_changed = 0;
    size_t errors = 0;
    /* The records not imported, printed after the sums. */
    char *not_imported = NULL;
    size_t not_imported_size = 0;
    FILE *not_imported_lines = open_memstream(&not_imported, &not_imported_size);
    if (not_imported_lines == NULL) goto oom;
    for (size_t r = 0; r < n_requests; r++) {
        Streak__V1__ImportDataRequest request = STREAK__V1__IMPORT_DATA_REQUEST__INIT;
        request.n_habits = request_start[r + 1] - request_start[r];
        request.habits = part_list + request_start[r];
        if (r == 0) {
            request.n_rest_periods = copy->n_rest;
            request.rest_periods = rest_list;
            if (copy->has_settings) request.settings = (Streak__V1__Settings *)&copy->settings;
        }
        streak_status st;
        if (streak_import_data(client, token, IMPORT_DEADLINE_MS, &request, &response, &st) != STREAK_OK) {
            char what[64];
            snprintf(what, sizeof what, "ImportData (request %zu of %zu)", r + 1, n_requests);
            failed(what, &st);
            fclose(not_imported_lines);
            free(not_imported);
            goto out;
        }
        created += response->habits_created;
        matched += response->habits_matched;
        completions += response->completions_added;
        skips += response->skips_added;
        rest_added += response->rest_periods_added;
        schedules += response->schedules_set;
        settings_changed |= response->settings_changed;
        /* The server lists the first 1,000 errors and counts them all (0 from a server older than
         * error_count, which lists every one). */
        size_t counted = (size_t)(response->error_count > 0 ? response->error_count : 0);
        errors += counted > response->n_errors ? counted : response->n_errors;
        for (size_t i = 0; i < response->n_errors; i++) {
            const Streak__V1__ImportRecordError *e = response->errors[i];
            char day[16];
            const char *name = e->habit_index >= 0 && (size_t)e->habit_index < request.n_habits
                                   ? copy->habits[part_habit[request_start[r] + (size_t)e->habit_index]].name : "";
            fprintf(not_imported_lines, "not imported: \"%s\" %s %s: %s\n", name, e->field, date_text(e->date, day),
                    e->message);
        }
        if (counted > response->n_errors)
            fprintf(not_imported_lines, "not imported: %zu more, not listed by the server\n",
                    counted - response->n_errors);
        streak_free_message((ProtobufCMessage *)response);
        response = NULL;
    }
    if (n_requests > 1) printf("import requests: %zu of at most %zu dates\n", n_requests, chunk);
    printf("imported: habits created %d, matched %d, completions %d, skips %d, rest periods %d, schedules %d, "
           "errors %zu\n", created, matched, completions, skips, rest_added, schedules, errors);
    printf("settings: %s\n", settings_changed ? "changed" : "unchanged");
    fclose(not_imported_lines);
    fputs(not_imported != NULL ? not_imported : "", stdout);
    free(not_imported);
    rc = 0;
    goto out;
oom:
    fprintf(stderr, "streak-data-example: out of memory\n");
out:
    for (size_t i = 0; arrays != NULL && i < copy->n_habits; i++) {
        free(arrays[i].entries);
        free(arrays[i].entry_list);
        free(arrays[i].completions);
        free(arrays[i].skips);
    }
    free(arrays);
    free(parts);
    free(part_list);
    free(part_habit);
    free(request_start);
    free(rest);
    free(rest_list);
    streak_free_message((ProtobufCMessage *)response);
    return rc;
}

/* ---- main --------------------------------------------------------------------------------- */

int main(int argc, char **argv) {
    example_options o;
    example_options_init(&o, "streak-data-example", "COMMAND",
                         "  export [--page-size N]\n"
                         "  copy --to-token-file FILE [--page-size N] [--chunk DATES]\n"
                         "  archive ID DATE | unarchive ID | delete ID\n");
    const char *command = NULL, *to_token_file = NULL;
    const char *args[2] = {NULL, NULL};
    int n_args = 0, page_size = 0;
    int64_t chunk = 20000;
    for (int i = 1; i < argc; i++) {
        if (example_option(&o, argc, argv, &i)) continue;
        if (strcmp(argv[i], "--page-size") == 0) {
            page_size = (int)example_integer(&o, "--page-size", example_value(&o, argc, argv, &i), 0, INT32_MAX);
        } else if (strcmp(argv[i], "--chunk") == 0) {
            chunk = example_integer(&o, "--chunk", example_value(&o, argc, argv, &i), 1, 1000000);
        } else if (strcmp(argv[i], "--to-token-file") == 0) {
            to_token_file = example_value(&o, argc, argv, &i);
        } else if (argv[i][0] == '-' && argv[i][1] != '\0' && !isdigit((unsigned char)argv[i][1])) {
            example_unknown(&o, argv[i]);
        } else if (command == NULL) {
            command = argv[i];
        } else if (n_args < 2) {
            args[n_args++] = argv[i];
        } else {
            example_unknown(&o, argv[i]);
        }
    }
    if (command == NULL) example_usage(&o, "no COMMAND");
    /* The command and its arguments, checked before anything is sent. */
    int64_t id = 0;
    Streak__V1__Date day;
    if (strcmp(command, "export") == 0) {
        if (n_args != 0 || to_token_file != NULL) example_usage(&o, "export takes only [--page-size N]");
    } else if (strcmp(command, "copy") == 0) {
        if (n_args != 0 || to_token_file == NULL) {
            example_usage(&o, "copy takes --to-token-file FILE [--page-size N] [--chunk DATES]");
        }
    } else if (strcmp(command, "archive") == 0 || strcmp(command, "unarchive") == 0 || strcmp(command, "delete") == 0) {
        int archive = strcmp(command, "archive") == 0;
        if (n_args != 1 + archive || to_token_file != NULL || page_size != 0) {
            example_usage(&o, "%s takes %s", command, archive ? "ID DATE" : "ID");
        }
        id = example_integer(&o, "ID", args[0], 1, INT64_MAX);
        if (archive) example_date(&o, "DATE", args[1], &day);
    } else {
        example_usage(&o, "unknown command '%s'", command);
    }
    example_options_finish(&o);
    const char *token = o.token;

    char other_token[1024];
    if (to_token_file != NULL && example_read_token_file(&o, to_token_file, other_token, sizeof other_token) != 0) {
        return 1;
    }
    streak_status st;
    streak_client *client = example_connect(&o, 5000, &st);
    if (client == NULL) return failed("connect", &st);

    int rc = 1;
    if (strcmp(command, "export") == 0) {
        export_copy copy = {.print_pages = 1};
        rc = export_all(client, token, page_size, &copy);
        if (rc == 0) print_totals(&copy);
        free_copy(&copy);
    } else if (strcmp(command, "copy") == 0) {
        export_copy copy = {0};
        rc = export_all(client, token, page_size, &copy);
        if (rc == 0) {
            printf("exported: pages %d, habits %zu, rest periods %zu, completions %zu, skips %zu\n", copy.pages,
                   copy.n_habits, copy.n_rest, copy.completions, copy.skips);
            rc = import_copy(client, other_token, &copy, (size_t)chunk);
        }
        free_copy(&copy);
    } else if (strcmp(command, "archive") == 0) {
        Streak__V1__ArchiveHabitRequest request = STREAK__V1__ARCHIVE_HABIT_REQUEST__INIT;
        request.habit_id = id;
        request.archived_on = &day;
        Streak__V1__ArchiveHabitResponse *response = NULL;
        char text[16];
        if (streak_call(client, "ArchiveHabit", token, DEADLINE_MS, &request.base,
                        &streak__v1__archive_habit_response__descriptor, (ProtobufCMessage **)&response,
                        &st) != STREAK_OK) {
            failed("ArchiveHabit", &st);
        } else {
            printf("archived habit %lld \"%s\" from %s\n", (long long)id, response->habit->name,
                   date_text(response->habit->archived_on, text));
            rc = 0;
        }
        streak_free_message((ProtobufCMessage *)response);
    } else if (strcmp(command, "unarchive") == 0) {
        Streak__V1__UnarchiveHabitResponse *response = NULL;
        if (streak_unarchive_habit(client, token, id, &response, &st) != STREAK_OK) {
            failed("UnarchiveHabit", &st);
        } else {
            printf("unarchived habit %lld \"%s\"%s\n", (long long)id, response->habit->name,
                   response->habit->archived_on == NULL ? ", live" : ", still archived");
            rc = 0;
        }
        streak_free_message((ProtobufCMessage *)response);
    } else {
        Streak__V1__DeleteHabitResponse *response = NULL;
        if (streak_delete_habit(client, token, id, &response, &st) != STREAK_OK) {
            failed("DeleteHabit", &st);
        } else {
            printf("deleted habit %lld \"%s\" with completions %d, skips %d\n", (long long)id, response->habit->name,
                   (int)response->completions, (int)response->skips);
            rc = 0;
        }
        streak_free_message((ProtobufCMessage *)response);
    }
    streak_close(client);
    return rc;
}
