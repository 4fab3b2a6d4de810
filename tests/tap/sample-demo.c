/*
 * tests/tap/sample-demo.c - runs sample_point (tests/tap/basic.h) over the
 * points given as arguments, CLASS/KEY each, and prints one line a point,
 * "run CLASS KEY" or "out CLASS KEY", then the TAP library's closing lines
 * (one passing point, the line beside the plan, the plan), so that
 * tests/tools/ci-t.sh can check the sampling under any TEST_SAMPLE.
 */
#include <stdio.h>
#include <string.h>

#include "tap/basic.h"

int
main(int argc, char **argv)
{
    int i;

    plan_lazy();
    for (i = 1; i < argc; i++) {
        char cls[256];
        const char *slash = strchr(argv[i], '/');
        size_t n = slash != NULL ? (size_t) (slash - argv[i]) : strlen(argv[i]);

        if (slash == NULL || n >= sizeof(cls))
            bail("argument %d: '%s' is not CLASS/KEY", i, argv[i]);
        memcpy(cls, argv[i], n);
        cls[n] = '\0';
        printf("%s %s %s\n", sample_point(cls, slash + 1) ? "run" : "out", cls, slash + 1);
    }
    ok(true, "%d points", argc - 1);
    return exit_status();
}
