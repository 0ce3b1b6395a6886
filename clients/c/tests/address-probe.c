/* Prints how streak_parse_address and streak_is_loopback read each argument, one line each:
 * "address\tHOST\tPORT\tLOOPBACK" or "address\terror" for `address TEXT`, "loopback\t0|1" for
 * `loopback TEXT` (the arguments come in pairs). clients/python/tests/test_c_library.py checks the
 * lines against docs/vectors/server-addresses.json. */
#include <stdio.h>
#include <string.h>

#include "streakclient.h"

int main(int argc, char **argv) {
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *text = argv[i + 1];
        if (strcmp(argv[i], "loopback") == 0) {
            printf("loopback\t%d\n", streak_is_loopback(text));
            continue;
        }
        char host[256];
        uint16_t port = 0;
        if (streak_parse_address(text, host, sizeof host, &port) != 0) {
            printf("address\terror\n");
        } else {
            printf("address\t%s\t%u\t%d\n", host, (unsigned)port, streak_is_loopback(host));
        }
    }
    return 0;
}
