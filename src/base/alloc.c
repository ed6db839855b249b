/* Memory and errors (alloc.h). */
#include "base/alloc.h"
#include "base/math.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- memory ------------------------------------------------------------ */

void *rvo__base_realloc(rvo_base *b, void *p, size_t old_size, size_t new_size) {
    if (b->alloc)
        return b->alloc(b->alloc_user, p, old_size, new_size);
    if (new_size == 0) {
        free(p);
        return NULL;
    }
    return realloc(p, new_size);
}

/* The capacity that holds need elements: cap grown by a quarter (from 16)
 * until it does, at most INT32_MAX. (Doubling left a world of 20000
 * agents, added one by one, room for 32768: 64% more memory than it used;
 * growing by half, 5000 agents held 6735 slots.) */
static int64_t grown_cap(int32_t cap, int32_t need) {
    int64_t n = cap > 0 ? cap : 16;
    while (n < need)
        n = n < 16 ? 16 : n + n / 4; /* (a capacity below 4 would not grow by a quarter) */
    return n > INT32_MAX ? INT32_MAX : n;
}

/* Grows *p to hold at least need elements (by a quarter, grown_cap). False when out of memory. */
bool rvo__base_grow(rvo_base *b, void **p, int32_t *cap, int32_t need, size_t elem) {
    RVO_ASSERT(p && cap && *cap >= 0 && (*p != NULL || *cap == 0) && elem > 0);
    if (need <= *cap)
        return true;
    const int64_t n = grown_cap(*cap, need);
    void *q = rvo__base_realloc(b, *p, (size_t)*cap * elem, (size_t)n * elem);
    if (!q)
        return false;
    *p = q;
    *cap = (int32_t)n;
    return true;
}

/* Grows count arrays that share one capacity, all or none: the new blocks
 * are allocated first and the old ones freed only once every allocation
 * succeeded, so a failure leaves each array and *cap as they were (a sized
 * allocator is always told a block's true size). */
bool rvo__base_grow_arrays(rvo_base *b, int32_t *cap, int32_t need, int count, void **const arrays[],
                           const size_t elems[]) {
    if (need <= *cap)
        return true;
    const int64_t n = grown_cap(*cap, need);
    void *fresh[RVO_GROW_ARRAYS_MAX];
    RVO_ASSERT(count > 0 && count <= RVO_GROW_ARRAYS_MAX);
    if (count > RVO_GROW_ARRAYS_MAX)
        return false;
    for (int k = 0; k < count; ++k) {
        fresh[k] = rvo__base_realloc(b, NULL, 0, (size_t)n * elems[k]);
        if (!fresh[k]) {
            while (k-- > 0)
                rvo__base_realloc(b, fresh[k], (size_t)n * elems[k], 0);
            return false;
        }
    }
    for (int k = 0; k < count; ++k) {
        if (*arrays[k]) {
            memcpy(fresh[k], *arrays[k], (size_t)*cap * elems[k]);
            rvo__base_realloc(b, *arrays[k], (size_t)*cap * elems[k], 0);
        }
        *arrays[k] = fresh[k];
    }
    *cap = (int32_t)n;
    return true;
}

/* ---- errors -------------------------------------------------------------- */

rvo_status rvo__base_fail(const rvo_base *cb, rvo_status s, int arg, const char *fmt, ...) {
    rvo_base *b = (rvo_base *)cb; /* the error slot is not world state */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b->err, sizeof b->err, fmt, ap);
    va_end(ap);
    b->err_arg = arg;
    return s;
}

rvo_status rvo__error_set(rvo_error *err, rvo_status s, int arg, const char *fmt, ...) {
    if (!err)
        return s;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    err->status = s;
    err->arg = arg;
    return s;
}

void rvo__error_ok(rvo_error *err) {
    if (!err)
        return;
    err->status = RVO_OK;
    err->arg = 0;
    err->message[0] = '\0';
}

const char *rvo__check_coord(const char *name, float v, char *buf, size_t n) {
    if (!isfinite(v)) {
        snprintf(buf, n, "%s must be finite", name);
        return buf;
    }
    if (fabsf(v) > RVO_MAX_COORD) {
        snprintf(buf, n, "%s must be within [-1e9, 1e9]", name);
        return buf;
    }
    return NULL;
}
