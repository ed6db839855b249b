/* Memory and errors: every allocation of a world goes through its host's
 * allocator (rvo_world_def.alloc), every failure leaves a message in its
 * error slot. The lowest layer knows a world only by its rvo_base member;
 * world/world.h has the rvo__realloc, rvo__grow, rvo__fail, ... that take
 * the world. */
#ifndef RVO_BASE_ALLOC_H
#define RVO_BASE_ALLOC_H

#include "base/platform.h"
#include "rvo.h"

#include <stddef.h>

typedef struct thread_pool thread_pool;

/* What every layer may use of a world: allocator, workers, error slot. */
typedef struct rvo_base {
    rvo_alloc_fn *alloc;
    void *alloc_user;
    /* the worker tasks (base/pool.c): the host's task hook (rvo_world_def),
     * or NULL and the built-in pool (NULL with one thread) */
    rvo_enqueue_task_fn *enqueue_task;
    rvo_finish_task_fn *finish_task;
    void *task_user;
    thread_pool *pool;
    char err[160];
    int err_arg;
} rvo_base;

void *rvo__base_realloc(rvo_base *b, void *p, size_t old_size, size_t new_size);
/* Grows *p to hold at least need elements (by a quarter, grown_cap). False when out of memory. */
bool rvo__base_grow(rvo_base *b, void **p, int32_t *cap, int32_t need, size_t elem);
#define RVO_GROW_ARRAYS_MAX 12
/* Grows count arrays that share one capacity, all or none. */
bool rvo__base_grow_arrays(rvo_base *b, int32_t *cap, int32_t need, int count, void **const arrays[],
                           const size_t elems[]);

/* Leaves the message in the error slot and returns s; the error slot is
 * not world state, so a const world's may be written. */
rvo_status rvo__base_fail(const rvo_base *b, rvo_status s, int arg, const char *fmt, ...) RVO_PRINTF(4, 5);
/* The error report of calls without a world: fills err (may be NULL) and
 * returns s; rvo__error_ok marks a call that succeeded. */
rvo_status rvo__error_set(rvo_error *err, rvo_status s, int arg, const char *fmt, ...) RVO_PRINTF(4, 5);
void rvo__error_ok(rvo_error *err);
/* Clears the last error (a call that succeeded); inline: per-agent setters
 * run it once per call. */
static inline void rvo__base_ok(const rvo_base *cb) {
    rvo_base *b = (rvo_base *)cb;
    b->err[0] = 0;
    b->err_arg = 0;
}
/* NULL when v is a finite coordinate within [-1e9, 1e9], else the message
 * (written into buf) that names it. */
const char *rvo__check_coord(const char *name, float v, char *buf, size_t n);

#endif
