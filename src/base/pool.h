/* The worker tasks: loops over agents run on the host's tasks
 * (rvo_world_def.enqueue_task), the built-in thread pool, or inline. The
 * worker index is the scratch index; results must not depend on the split. */
#ifndef RVO_BASE_POOL_H
#define RVO_BASE_POOL_H

#include "base/alloc.h"

/* NULL when the def's task fields are consistent. */
const char *rvo__task_def_check(const rvo_world_def *def);
/* Copies the task hook from def and starts the pool if it is needed
 * (def->threads above 1 and no hook). */
bool rvo__tasks_start(rvo_base *b, const rvo_world_def *def);
void rvo__pool_stop(rvo_base *b);
/* Runs fn over [0, count) on the host's tasks, the pool or inline. */
void rvo__parallel_for(rvo_base *b, int32_t count, int32_t min_range, rvo_task_fn *fn, void *ctx);
/* The same on the built-in pool only (a host's tasks: on this thread), for
 * short per-agent loops a host must not get wrong: one that runs a range
 * twice would integrate its agents twice. */
void rvo__pool_for(rvo_base *b, int32_t count, int32_t min_range, rvo_task_fn *fn, void *ctx);
#define RVO_LOOP_CHUNK 1024 /* agents per work item of those loops */

#endif
