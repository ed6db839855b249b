/* The worker tasks: the host's task hook, the built-in pool, or inline. */
#include "base/pool.h"

#include <stdatomic.h>
#include <string.h>

/* The built-in pool. A job is open until the caller has claimed its last
 * chunk; a worker joins it only while it is open, and the caller waits only
 * for the workers that joined: a worker that does not get a core in time
 * (a loaded machine) never holds the caller up. Between the jobs of one
 * step (serial parts take tens of microseconds) waiting threads spin for a
 * while before they sleep: waking a sleeping thread costs about as much. */

/* A thread's share of a job: the same range of items on every job of the
 * same size, so each thread writes the same part of the output arrays
 * step after step (those lines stay in its cache; chunks handed out in
 * turn moved them between the cores on every step). A thread that is
 * done takes chunks from the others' shares. */
typedef struct part {
    atomic_int next; /* first item of the share's next chunk */
    int32_t end;
    char pad[56];
} part;

/* The job state word: generation (high 32 bits), closed, workers in it. */
#define JOB_CLOSED ((uint64_t)1 << 31)
#define JOB_ACTIVE (JOB_CLOSED - 1)
static uint32_t job_gen(uint64_t s) { return (uint32_t)(s >> 32); }

struct thread_pool {
    rvo_thread *threads;
    int32_t nthreads; /* workers besides the caller */
    int32_t nalloc;   /* workers allocated for (rvo_world_def.threads - 1) */
    rvo_mutex mu;
    rvo_cond start, done;
    rvo_task_fn *fn;
    void *ctx;
    int32_t chunk;
    part *parts; /* one per thread, the caller's first */
    /* below, on lines of their own (written while others read; padding,
     * as a host's allocator need not align the pool to lines) */
    char pad1[64];
    atomic_uint_fast64_t state; /* see JOB_ */
    atomic_int sleepers;        /* workers asleep on start (or about to be) */
    atomic_bool quit;
    atomic_bool caller_asleep; /* the caller waits on done */
    char pad2[64];
};

typedef struct worker_arg {
    thread_pool *pool;
    int32_t index; /* scratch index, 1.. */
} worker_arg;

static void run_chunks(thread_pool *pool, uint32_t worker) {
    const int32_t nparts = pool->nthreads + 1;
    for (int32_t k = 0; k < nparts; ++k) {
        part *pt = &pool->parts[((int32_t)worker + k) % nparts];
        for (;;) {
            const int32_t begin = atomic_fetch_add(&pt->next, pool->chunk);
            if (begin >= pt->end)
                break;
            const int32_t end = pt->end - begin > pool->chunk ? begin + pool->chunk : pt->end;
            pool->fn(begin, end, worker, pool->ctx);
        }
    }
}

#define SPIN_US 200.0 /* how long a waiting thread spins before it sleeps */

/* Spins until done(pool, arg) or SPIN_US have passed; true when done. */
static bool spin_until(bool (*done)(thread_pool *, uint32_t), thread_pool *pool, uint32_t arg) {
    const double t0 = rvo__now_us();
    for (int k = 1;; ++k) {
        if (done(pool, arg))
            return true;
        rvo__cpu_relax();
        if ((k & 63) == 0) {
            if (rvo__now_us() - t0 > SPIN_US)
                return false;
            rvo__yield(); /* more threads than cores: let the one we wait for run */
        }
    }
}

static bool new_job(thread_pool *pool, uint32_t seen) {
    return job_gen(atomic_load(&pool->state)) != seen ||
           atomic_load_explicit(&pool->quit, memory_order_relaxed);
}

static bool none_active(thread_pool *pool, uint32_t unused) {
    (void)unused;
    return (atomic_load(&pool->state) & JOB_ACTIVE) == 0;
}

static void *worker_main(void *p) {
    worker_arg *arg = p;
    thread_pool *pool = arg->pool;
    uint32_t seen = 0;
    for (;;) {
        if (!spin_until(new_job, pool, seen)) {
            /* announce the sleep, then look again (the caller stores the
             * job, then looks for sleepers: one of the two sees the other) */
            rvo__mutex_lock(&pool->mu);
            atomic_fetch_add(&pool->sleepers, 1);
            while (!new_job(pool, seen))
                rvo__cond_wait(&pool->start, &pool->mu);
            atomic_fetch_sub(&pool->sleepers, 1);
            rvo__mutex_unlock(&pool->mu);
        }
        if (atomic_load(&pool->quit))
            break;
        uint64_t s = atomic_load(&pool->state);
        seen = job_gen(s);
        bool joined = false; /* only while the job is open */
        while (!joined && job_gen(s) == seen && !(s & JOB_CLOSED))
            joined = atomic_compare_exchange_weak(&pool->state, &s, s + 1);
        if (!joined)
            continue;
        run_chunks(pool, (uint32_t)arg->index);
        const uint64_t left = atomic_fetch_sub(&pool->state, 1) - 1;
        if ((left & JOB_ACTIVE) == 0 && atomic_load(&pool->caller_asleep)) {
            rvo__mutex_lock(&pool->mu);
            rvo__cond_signal(&pool->done);
            rvo__mutex_unlock(&pool->mu);
        }
    }
    return NULL;
}

/* Wakes the workers that sleep. */
static void wake_sleepers(thread_pool *pool) {
    if (atomic_load(&pool->sleepers) == 0)
        return;
    rvo__mutex_lock(&pool->mu);
    rvo__cond_broadcast(&pool->start);
    rvo__mutex_unlock(&pool->mu);
}

/* The worker arguments live right after the n thread handles. */
static worker_arg *pool_args(thread_pool *pool, int32_t n) { return (worker_arg *)(pool->threads + n); }

static bool pool_start(rvo_base *b, int32_t threads) {
    const int32_t n = threads - 1;
    thread_pool *pool = rvo__base_realloc(b, NULL, 0, sizeof *pool);
    if (!pool)
        return false;
    memset(pool, 0, sizeof *pool);
    atomic_init(&pool->state, 0);
    atomic_init(&pool->sleepers, 0);
    atomic_init(&pool->quit, false);
    atomic_init(&pool->caller_asleep, false);
    pool->threads = rvo__base_realloc(b, NULL, 0, (sizeof(rvo_thread) + sizeof(worker_arg)) * (size_t)n);
    pool->parts = rvo__base_realloc(b, NULL, 0, sizeof *pool->parts * (size_t)(n + 1));
    pool->nalloc = n;
    if (!pool->threads || !pool->parts) {
        if (pool->threads)
            rvo__base_realloc(b, pool->threads, (sizeof(rvo_thread) + sizeof(worker_arg)) * (size_t)n, 0);
        if (pool->parts)
            rvo__base_realloc(b, pool->parts, sizeof *pool->parts * (size_t)(n + 1), 0);
        rvo__base_realloc(b, pool, sizeof *pool, 0);
        return false;
    }
    for (int32_t k = 0; k <= n; ++k) {
        atomic_init(&pool->parts[k].next, 0);
        pool->parts[k].end = 0;
    }
    rvo__mutex_init(&pool->mu);
    rvo__cond_init(&pool->start);
    rvo__cond_init(&pool->done);
    b->pool = pool;
    for (int32_t k = 0; k < n; ++k) {
        worker_arg *a = &pool_args(pool, n)[k];
        a->pool = pool;
        a->index = k + 1;
        if (!rvo__thread_start(&pool->threads[k], worker_main, a)) {
            rvo__pool_stop(b);
            return false;
        }
        pool->nthreads = k + 1;
    }
    return true;
}

void rvo__pool_stop(rvo_base *b) {
    thread_pool *pool = b->pool;
    if (!pool)
        return;
    atomic_store(&pool->quit, true);
    rvo__mutex_lock(&pool->mu);
    rvo__cond_broadcast(&pool->start);
    rvo__mutex_unlock(&pool->mu);
    for (int32_t k = 0; k < pool->nthreads; ++k)
        rvo__thread_join(&pool->threads[k]);
    rvo__mutex_destroy(&pool->mu);
    rvo__cond_destroy(&pool->start);
    rvo__cond_destroy(&pool->done);
    const int32_t n = pool->nalloc;
    rvo__base_realloc(b, pool->threads, (sizeof(rvo_thread) + sizeof(worker_arg)) * (size_t)n, 0);
    rvo__base_realloc(b, pool->parts, sizeof *pool->parts * (size_t)(n + 1), 0);
    rvo__base_realloc(b, pool, sizeof *pool, 0);
    b->pool = NULL;
}

const char *rvo__task_def_check(const rvo_world_def *def) {
    if ((def->enqueue_task == NULL) != (def->finish_task == NULL))
        return "enqueue_task and finish_task must be set together";
    return NULL;
}

bool rvo__tasks_start(rvo_base *b, const rvo_world_def *def) {
    b->enqueue_task = def->enqueue_task;
    b->finish_task = def->finish_task;
    b->task_user = def->task_user;
    return b->enqueue_task || def->threads == 1 || pool_start(b, def->threads);
}

void rvo__parallel_for(rvo_base *b, int32_t count, int32_t min_range, rvo_task_fn *fn, void *ctx) {
    RVO_ASSERT(fn && min_range > 0);
    if (count <= 0)
        return;
    if (b->enqueue_task) {
        void *task = b->enqueue_task(fn, count, min_range, ctx, b->task_user);
        if (task)
            b->finish_task(task, b->task_user);
        return;
    }
    thread_pool *pool = b->pool;
    if (!pool || count < 2 * min_range) {
        fn(0, count, 0, ctx);
        return;
    }
    pool->fn = fn;
    pool->ctx = ctx;
    pool->chunk = min_range;
    const int32_t nparts = pool->nthreads + 1;
    const int32_t chunks = (count + min_range - 1) / min_range;
    for (int32_t k = 0; k < nparts; ++k) { /* shares of whole chunks */
        const int32_t first = (int32_t)((int64_t)chunks * k / nparts);
        const int32_t last = (int32_t)((int64_t)chunks * (k + 1) / nparts);
        atomic_store(&pool->parts[k].next, first * min_range);
        pool->parts[k].end = last * min_range < count ? last * min_range : count;
    }
    /* a new generation, open, nobody in it: publishes the fields above */
    const uint64_t gen = (uint64_t)job_gen(atomic_load(&pool->state)) + 1;
    atomic_store(&pool->state, (gen & 0xffffffffu) << 32);
    wake_sleepers(pool);
    run_chunks(pool, 0);
    atomic_fetch_or(&pool->state, JOB_CLOSED); /* every chunk is taken: no one joins now */
    if (!spin_until(none_active, pool, 0)) {
        rvo__mutex_lock(&pool->mu);
        atomic_store(&pool->caller_asleep, true);
        while (!none_active(pool, 0))
            rvo__cond_wait(&pool->done, &pool->mu);
        atomic_store(&pool->caller_asleep, false);
        rvo__mutex_unlock(&pool->mu);
    }
}

void rvo__pool_for(rvo_base *b, int32_t count, int32_t min_range, rvo_task_fn *fn, void *ctx) {
    if (b->enqueue_task || !b->pool) {
        if (count > 0)
            fn(0, count, 0, ctx);
        return;
    }
    rvo__parallel_for(b, count, min_range, fn, ctx);
}
