/* call-probe: calls against a server (a fake one in clients/python/tests/test_c_library.py) and
 * prints each outcome: "call N: CODE_NAME: message [S.Ss]" (or "stream N: ... messages M").
 * usage: call-probe PORT unary|stream DEADLINE_MS [CALLS] [CONNECT_TIMEOUT_MS]
 * Each call is a GetStreak (unary) or Watch (stream) with token "tok" and the deadline. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "streakclient.h"

static int messages;

static int on_message(const ProtobufCMessage *message, void *context) {
    (void)message;
    (void)context;
    messages++;
    return 0;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: call-probe PORT unary|stream DEADLINE_MS [CALLS] [CONNECT_TIMEOUT_MS]\n");
        return 2;
    }
    int port = atoi(argv[1]), deadline = atoi(argv[3]);
    int calls = argc > 4 ? atoi(argv[4]) : 1, connect_timeout = argc > 5 ? atoi(argv[5]) : 3000;
    int unary = strcmp(argv[2], "unary") == 0;
    streak_status st;
    double start = now();
    streak_client *client = streak_connect("127.0.0.1", (uint16_t)port, connect_timeout, &st);
    if (client == NULL) {
        printf("connect: %s: %s [%.1fs]\n", streak_code_name(st.code), st.message, now() - start);
        return 0;
    }
    for (int call = 1; call <= calls; call++) {
        start = now();
        if (unary) {
            Streak__V1__GetStreakRequest request = STREAK__V1__GET_STREAK_REQUEST__INIT;
            Streak__V1__GetStreakResponse *response = NULL;
            streak_code code = streak_call(client, "GetStreak", "tok", deadline, &request.base,
                                           &streak__v1__get_streak_response__descriptor, (ProtobufCMessage **)&response,
                                           &st);
            printf("call %d: %s: %s [%.1fs]\n", call, streak_code_name(code), st.message, now() - start);
            streak_free_message((ProtobufCMessage *)response);
        } else {
            Streak__V1__WatchRequest request = STREAK__V1__WATCH_REQUEST__INIT;
            messages = 0;
            streak_code code = streak_stream(client, "Watch", "tok", deadline, &request.base,
                                             &streak__v1__watch_event__descriptor, on_message, NULL, &st);
            printf("stream %d: %s: %s messages %d [%.1fs]\n", call, streak_code_name(code), st.message, messages,
                   now() - start);
        }
        fflush(stdout);
    }
    streak_close(client);
    return 0;
}
