#include "check.h"

int check_failures = 0;
int check_count = 0;

int check_finish(const char *name) {
    printf("%s: %d checks, %d failed\n", name, check_count, check_failures);
    return check_failures == 0 ? 0 : 1;
}
