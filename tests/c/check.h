/* A minimal assertion kit for the C tests: failures are counted, reported
 * with file and line, and turn into a non-zero exit code. */
#ifndef RVO_CHECK_H
#define RVO_CHECK_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "rvo.h"

/* FNV-1a over the bits of every agent's position and velocity: equal
 * hashes mean bit-identical worlds (the thread-determinism tests). */
uint64_t check_hash_world(const rvo_world *w);

/* A copy of w through a snapshot (saved, then loaded), or NULL (a failed
 * CHECK) when it does not load. */
rvo_world *check_copy(const rvo_world *w);

extern int check_failures;
extern int check_count;

#define CHECK(cond)                                                                                          \
    do {                                                                                                     \
        ++check_count;                                                                                       \
        if (!(cond)) {                                                                                       \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);                         \
            ++check_failures;                                                                                \
        }                                                                                                    \
    } while (0)

#define CHECK_NEAR(a, b, eps)                                                                                \
    do {                                                                                                     \
        const double a_ = (a), b_ = (b);                                                                     \
        ++check_count;                                                                                       \
        if (!(fabs(a_ - b_) <= (eps))) {                                                                     \
            fprintf(stderr, "%s:%d: CHECK_NEAR failed: %s = %.9g, %s = %.9g\n", __FILE__, __LINE__, #a, a_,  \
                    #b, b_);                                                                                 \
            ++check_failures;                                                                                \
        }                                                                                                    \
    } while (0)

/* Prints a summary; returns the process exit code. */
int check_finish(const char *name);

#endif
