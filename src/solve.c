/* The solve phase: per-worker scratch, a small thread pool, and the loop
 * that gives every agent its new velocity. Each agent writes only its own
 * slot and reads only the frozen state, so the result does not depend on
 * the thread count or on which worker takes which agent. */
#include "give_way.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define CHUNK 64 /* agents per work item */

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
    pthread_t *threads;
    int32_t nthreads; /* workers besides the caller */
    pthread_mutex_t mu;
    pthread_cond_t start, done;
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
            if (begin >= pt->end) break;
            const int32_t end = pt->end - begin > pool->chunk ? begin + pool->chunk : pt->end;
            pool->fn(begin, end, worker, pool->ctx);
        }
    }
}

static void cpu_relax(void) {
#if defined(__SSE2__)
    _mm_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

static double now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec * 1e-3;
}

#define SPIN_US 200.0 /* how long a waiting thread spins before it sleeps */

/* Spins until done(pool, arg) or SPIN_US have passed; true when done. */
static bool spin_until(bool (*done)(thread_pool *, uint32_t), thread_pool *pool, uint32_t arg) {
    const double t0 = now_us();
    for (int k = 1;; ++k) {
        if (done(pool, arg)) return true;
        cpu_relax();
        if ((k & 63) == 0) {
            if (now_us() - t0 > SPIN_US) return false;
            sched_yield(); /* more threads than cores: let the one we wait for run */
        }
    }
}

static bool new_job(thread_pool *pool, uint32_t seen) {
    return job_gen(atomic_load(&pool->state)) != seen || atomic_load_explicit(&pool->quit, memory_order_relaxed);
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
            pthread_mutex_lock(&pool->mu);
            atomic_fetch_add(&pool->sleepers, 1);
            while (!new_job(pool, seen)) pthread_cond_wait(&pool->start, &pool->mu);
            atomic_fetch_sub(&pool->sleepers, 1);
            pthread_mutex_unlock(&pool->mu);
        }
        if (atomic_load(&pool->quit)) break;
        uint64_t s = atomic_load(&pool->state);
        seen = job_gen(s);
        bool joined = false; /* only while the job is open */
        while (!joined && job_gen(s) == seen && !(s & JOB_CLOSED))
            joined = atomic_compare_exchange_weak(&pool->state, &s, s + 1);
        if (!joined) continue;
        run_chunks(pool, (uint32_t)arg->index);
        const uint64_t left = atomic_fetch_sub(&pool->state, 1) - 1;
        if ((left & JOB_ACTIVE) == 0 && atomic_load(&pool->caller_asleep)) {
            pthread_mutex_lock(&pool->mu);
            pthread_cond_signal(&pool->done);
            pthread_mutex_unlock(&pool->mu);
        }
    }
    return NULL;
}

/* Wakes the workers that sleep. */
static void wake_sleepers(thread_pool *pool) {
    if (atomic_load(&pool->sleepers) == 0) return;
    pthread_mutex_lock(&pool->mu);
    pthread_cond_broadcast(&pool->start);
    pthread_mutex_unlock(&pool->mu);
}

/* The worker arguments live right after the n thread handles. */
static worker_arg *pool_args(thread_pool *pool, int32_t n) { return (worker_arg *)(pool->threads + n); }

bool rvo__pool_start(rvo_world *w) {
    const int32_t n = w->threads - 1;
    thread_pool *pool = rvo__realloc(w, NULL, 0, sizeof *pool);
    if (!pool) return false;
    memset(pool, 0, sizeof *pool);
    atomic_init(&pool->state, 0);
    atomic_init(&pool->sleepers, 0);
    atomic_init(&pool->quit, false);
    atomic_init(&pool->caller_asleep, false);
    pool->threads = rvo__realloc(w, NULL, 0, (sizeof(pthread_t) + sizeof(worker_arg)) * (size_t)n);
    pool->parts = rvo__realloc(w, NULL, 0, sizeof *pool->parts * (size_t)(n + 1));
    if (!pool->threads || !pool->parts) {
        if (pool->threads) rvo__realloc(w, pool->threads, (sizeof(pthread_t) + sizeof(worker_arg)) * (size_t)n, 0);
        if (pool->parts) rvo__realloc(w, pool->parts, sizeof *pool->parts * (size_t)(n + 1), 0);
        rvo__realloc(w, pool, sizeof *pool, 0);
        return false;
    }
    for (int32_t k = 0; k <= n; ++k) {
        atomic_init(&pool->parts[k].next, 0);
        pool->parts[k].end = 0;
    }
    pthread_mutex_init(&pool->mu, NULL);
    pthread_cond_init(&pool->start, NULL);
    pthread_cond_init(&pool->done, NULL);
    w->pool = pool;
    for (int32_t k = 0; k < n; ++k) {
        worker_arg *a = &pool_args(pool, n)[k];
        a->pool = pool;
        a->index = k + 1;
        if (pthread_create(&pool->threads[k], NULL, worker_main, a) != 0) {
            rvo__pool_stop(w);
            return false;
        }
        pool->nthreads = k + 1;
    }
    return true;
}

void rvo__pool_stop(rvo_world *w) {
    thread_pool *pool = w->pool;
    if (!pool) return;
    atomic_store(&pool->quit, true);
    pthread_mutex_lock(&pool->mu);
    pthread_cond_broadcast(&pool->start);
    pthread_mutex_unlock(&pool->mu);
    for (int32_t k = 0; k < pool->nthreads; ++k) pthread_join(pool->threads[k], NULL);
    pthread_mutex_destroy(&pool->mu);
    pthread_cond_destroy(&pool->start);
    pthread_cond_destroy(&pool->done);
    const int32_t n = w->threads - 1;
    rvo__realloc(w, pool->threads, (sizeof(pthread_t) + sizeof(worker_arg)) * (size_t)n, 0);
    rvo__realloc(w, pool->parts, sizeof *pool->parts * (size_t)(n + 1), 0);
    rvo__realloc(w, pool, sizeof *pool, 0);
    w->pool = NULL;
}

const char *rvo__task_def_check(const rvo_world_def *def) {
    if ((def->enqueue_task == NULL) != (def->finish_task == NULL))
        return "enqueue_task and finish_task must be set together";
    return NULL;
}

bool rvo__tasks_start(rvo_world *w, const rvo_world_def *def) {
    w->enqueue_task = def->enqueue_task;
    w->finish_task = def->finish_task;
    w->task_user = def->task_user;
    return w->enqueue_task || w->threads == 1 || rvo__pool_start(w);
}

void rvo__parallel_for(rvo_world *w, int32_t count, int32_t min_range, rvo_task_fn *fn, void *ctx) {
    if (count <= 0) return;
    if (w->enqueue_task) {
        void *task = w->enqueue_task(fn, count, min_range, ctx, w->task_user);
        if (task) w->finish_task(task, w->task_user);
        return;
    }
    thread_pool *pool = w->pool;
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
        pthread_mutex_lock(&pool->mu);
        atomic_store(&pool->caller_asleep, true);
        while (!none_active(pool, 0)) pthread_cond_wait(&pool->done, &pool->mu);
        atomic_store(&pool->caller_asleep, false);
        pthread_mutex_unlock(&pool->mu);
    }
}

void rvo__pool_for(rvo_world *w, int32_t count, int32_t min_range, rvo_task_fn *fn, void *ctx) {
    if (w->enqueue_task || !w->pool) {
        if (count > 0) fn(0, count, 0, ctx);
        return;
    }
    rvo__parallel_for(w, count, min_range, fn, ctx);
}

/* ---- scratch ------------------------------------------------------------- */

bool rvo__scratch_reserve(rvo_world *w) {
    const int32_t lines = w->nverts + RVO_MAX_NEIGHBORS_LIMIT + 1;
    for (int32_t k = 0; k < w->threads; ++k) {
        scratch *s = &w->scratch[k];
        void **const arrays[] = {(void **)&s->lines, (void **)&s->proj};
        const size_t elems[] = {sizeof *s->lines, sizeof *s->proj};
        if (!rvo__grow_arrays(w, &s->lines_cap, lines, 2, arrays, elems)) return false;
        if (!rvo__grow(w, (void **)&s->agents, &s->agents_cap, RVO_MAX_NEIGHBORS_LIMIT + 1, sizeof *s->agents) ||
            !rvo__grow(w, (void **)&s->obst, &s->obst_cap, w->nverts + 1, sizeof *s->obst) ||
            !rvo__grow(w, (void **)&s->spans, &s->spans_cap, 2 * RVO_MAX_NEIGHBORS_LIMIT + w->nverts + 1,
                       sizeof *s->spans))
            return false;
        if (s->stamp_cap < w->nverts + 1) {
            const int32_t old = s->stamp_cap;
            if (!rvo__grow(w, (void **)&s->stamp, &s->stamp_cap, w->nverts + 1, sizeof *s->stamp)) return false;
            memset(s->stamp + old, 0, sizeof *s->stamp * (size_t)(s->stamp_cap - old));
        }
    }
    return true;
}

void rvo__scratch_free(rvo_world *w) {
    for (int32_t k = 0; k < w->threads; ++k) {
        scratch *s = &w->scratch[k];
        rvo__realloc(w, s->lines, sizeof *s->lines * (size_t)s->lines_cap, 0);
        rvo__realloc(w, s->proj, sizeof *s->proj * (size_t)s->lines_cap, 0);
        rvo__realloc(w, s->agents, sizeof *s->agents * (size_t)s->agents_cap, 0);
        rvo__realloc(w, s->obst, sizeof *s->obst * (size_t)s->obst_cap, 0);
        rvo__realloc(w, s->stamp, sizeof *s->stamp * (size_t)s->stamp_cap, 0);
        rvo__realloc(w, s->spans, sizeof *s->spans * (size_t)s->spans_cap, 0);
        memset(s, 0, sizeof *s);
    }
}

bool rvo__prepare(rvo_world *w) {
    if (!w->grid.valid && !rvo__agent_grid_build(w)) return false;
    if (!w->egrid.valid && !rvo__edge_grid_build(w)) return false;
    return rvo__scratch_reserve(w);
}

typedef struct solve_ctx {
    rvo_world *w;
    float dt;
    atomic_int done;    /* items run, to catch a host that skips ranges */
    atomic_bool bad_worker;
} solve_ctx;

static void solve_range(int32_t begin, int32_t end, uint32_t worker, void *p) {
    solve_ctx *c = p;
    rvo_world *w = c->w;
    if (worker >= (uint32_t)w->threads || begin < 0 || end > w->count || begin > end) {
        atomic_store(&c->bad_worker, true);
        return;
    }
    scratch *s = &w->scratch[worker];
    const float dt = c->dt;
    /* Agents in grid order: neighbours of consecutive agents are mostly
     * the same, so their data stays in cache (2x fewer misses at 100k). */
    const int32_t *order = w->grid.items;
    for (int32_t t = begin; t < end; ++t) {
        const int32_t i = order[t];
#if defined(__GNUC__)
        /* the agent's own data is in world order: fetch it ahead */
        if (t + 8 < end) {
            const int32_t ahead = order[t + 8];
            __builtin_prefetch(&w->pos[ahead]);
            __builtin_prefetch(&w->vel[ahead]);
            __builtin_prefetch(&w->prm[ahead]);
            __builtin_prefetch(&w->pref[ahead]);
        }
#endif
        rvo_vec2 v;
        if (w->prm[i].locked)
            v = w->vel[i];
        else if (w->solver == RVO_SOLVER_UE)
            v = rvo__ue_new_velocity(w, i, dt, s);
        else if (w->solver == RVO_SOLVER_RVO)
            v = rvo__sampling_new_velocity(w, i, dt, s);
        else
            v = rvo__orca_new_velocity(w, i, dt, s);
        /* degenerate input (issue 8): when dt or a time horizon is so small
         * that its inverse overflows, the agent stands still this step */
        if (!v2_finite(v)) v = v2(0.0f, 0.0f);
        /* in grid order: workers writing newvel[i] directly would share its
         * cache lines (agents of one chunk are scattered over the world) */
        w->grid.item_vel[t] = v;
    }
    atomic_fetch_add(&c->done, end - begin);
}

/* The new velocities from grid order to the world's (see solve_range). */
static void gather_range(int32_t begin, int32_t end, uint32_t worker, void *p) {
    (void)worker;
    rvo_world *w = p;
    for (int32_t i = begin; i < end; ++i) w->newvel[i] = w->grid.item_vel[w->grid.slot_of[i]];
}

rvo_status rvo_world_solve(rvo_world *w, float dt) {
    if (!w) return RVO_ERR_INVALID_ARGUMENT;
    if (!isfinite(dt)) return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 1, "dt must be finite");
    if (!(dt > 0)) return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 1, "dt must be > 0");
    if (!rvo__prepare(w)) return rvo__fail(w, RVO_ERR_OUT_OF_MEMORY, 0, "out of memory");
    if (!rvo__update_shares(w)) return rvo__fail(w, RVO_ERR_OUT_OF_MEMORY, 0, "out of memory");
    solve_ctx c;
    c.w = w;
    c.dt = dt;
    atomic_init(&c.done, 0);
    atomic_init(&c.bad_worker, false);
    rvo__parallel_for(w, w->count, CHUNK, solve_range, &c);
    if (atomic_load(&c.bad_worker) || atomic_load(&c.done) != w->count) {
        w->solved = false;
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 0,
                         "task hook: ranges must cover every agent once, with worker < threads");
    }
    rvo__pool_for(w, w->count, RVO_LOOP_CHUNK, gather_range, w);
    w->solved = true;
    w->ever_solved = true;
    rvo__ok(w);
    return RVO_OK;
}
