/* Threads and the host task hook: bit-identical results on 1 and 2 pool
 * threads and through hooks that split, reorder and thread the work;
 * misuse of the hook; no allocation inside a step. */
#include "check.h"
#include "rvo.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* ---- hosts ---------------------------------------------------------------- */

typedef struct host {
    int mode; /* 0 inline, 1 reversed small ranges, 2 two threads, 3 bad worker, 4 skip a range,
               * 5 and 6: mode 0 for the solve, then 5 breaks the next loop (the overlap
               * candidates), 6 every later loop of the step (obstacle push-out) */
    int workers;
    int enqueued, finished;
    int32_t last_min_range;
    int in_step; /* loops enqueued since the test last reset it (modes 5, 6) */
} host;

typedef struct slice {
    rvo_task_fn *fn;
    void *ctx;
    int32_t begin, end;
    uint32_t worker;
} slice;

static void *run_slice(void *p) {
    slice *s = p;
    s->fn(s->begin, s->end, s->worker, s->ctx);
    return NULL;
}

static void *enqueue(rvo_task_fn *fn, int32_t count, int32_t min_range, void *ctx, void *user) {
    host *h = user;
    h->enqueued++;
    h->last_min_range = min_range;
    const int loop = h->in_step++;
    int mode = h->mode;
    if (mode == 5 || mode == 6) {
        const bool breaks = mode == 5 ? loop == 1 : loop >= 2;
        if (!breaks)
            mode = 0;
        else { /* the candidates: skips agents 0..6, hands one range a worker out of bounds, reverses */
            for (int32_t end = count; end > 7; end -= 7) {
                const int32_t begin = end > 14 ? end - 7 : 7;
                fn(begin, end, end == count ? (uint32_t)h->workers : 0u, ctx);
            }
            return h;
        }
    }
    switch (mode) {
    case 0: /* everything inline, at once: no handle */
        fn(0, count, 0, ctx);
        return NULL;
    case 1: /* ranges of 7, last first, worker varying */
        for (int32_t end = count; end > 0; end -= 7) {
            const int32_t begin = end > 7 ? end - 7 : 0;
            fn(begin, end, (uint32_t)((end / 7) % h->workers), ctx);
        }
        return h;
    case 2: { /* two real threads, one half each */
        slice a = {fn, ctx, 0, count / 2, 0}, b = {fn, ctx, count / 2, count, 1};
        pthread_t t;
        const int started = pthread_create(&t, NULL, run_slice, &b) == 0;
        run_slice(&a);
        if (started)
            pthread_join(t, NULL);
        else
            run_slice(&b);
        return h;
    }
    case 3: /* a worker index beyond the def's threads */
        fn(0, count, (uint32_t)h->workers, ctx);
        return h;
    default: /* forgets the first agent */
        if (count > 1)
            fn(1, count, 0, ctx);
        return h;
    }
}

static void finish(void *task, void *user) {
    host *h = user;
    CHECK(task == h);
    h->finished++;
}

/* ---- a crossing with obstacles, hashed --------------------------------------- */

typedef struct counter {
    long calls;
} counter;

static void *counting(void *user, void *ptr, size_t old_size, size_t new_size) {
    counter *c = user;
    c->calls++;
    (void)old_size;
    if (new_size == 0) {
        free(ptr);
        return NULL;
    }
    return realloc(ptr, new_size);
}

/* n agents crossing a square with a pillar for steps steps. mode: 0 the
 * default, 1 RVO2 mode (rvo2_compat), 2 the default with agents of four
 * radii, five weights (0 included), three groups, masks that make pairs
 * one-sided, heights and a few locks (the overlap pass's uneven pairs).
 * Returns the hash of positions and velocities. */
static uint64_t crossing(int threads, host *h, int n, int steps, int mode, long *step_allocs) {
    const bool compat = mode == 1;
    counter c = {0};
    rvo_world_def wd = rvo_world_def_default();
    wd.threads = threads;
    wd.time_step = 0.25f;
    wd.agent.radius = 1.0f;
    wd.agent.neighbor_dist = 8.0f;
    wd.alloc = counting;
    wd.alloc_user = &c;
    if (h) {
        wd.enqueue_task = enqueue;
        wd.finish_task = finish;
        wd.task_user = h;
    }
    rvo_world *w = rvo_world_create(&wd, NULL);
    CHECK(w != NULL);
    if (!w)
        return 0;
    rvo_world_set_rvo2_compat(w, compat);
    const float pillar[] = {-3, -3, 3, -3, 3, 3, -3, 3};
    rvo_world_add_obstacle(w, pillar, 4, true);
    unsigned seed = 11;
    float *goal = malloc(sizeof(float) * 2 * (size_t)n), *pref = malloc(sizeof(float) * 2 * (size_t)n);
    const float side = sqrtf((float)n) * 4.0f;
    for (int i = 0; i < n; ++i) {
        float xy[4];
        for (int k = 0; k < 4; ++k) {
            seed = seed * 1103515245u + 12345u;
            xy[k] = ((float)(seed >> 8) / 16777216.0f - 0.5f) * side;
        }
        if (fabsf(xy[0]) < 5 && fabsf(xy[1]) < 5)
            xy[0] += 10;
        const rvo_agent_id id = rvo_world_add_agent(w, xy[0], xy[1], NULL);
        if (mode == 2) {
            rvo_agent_set_param(w, id, RVO_PARAM_RADIUS, 0.7 + 0.2 * (i % 4));
            rvo_agent_set_param(w, id, RVO_PARAM_WEIGHT, (i % 5) * 0.25);
            rvo_agent_set_param(w, id, RVO_PARAM_GROUPS, 1u << (i % 3));
            rvo_agent_set_param(w, id, RVO_PARAM_MASK, i % 7 == 0 ? 0x5u : 0xffffffffu);
            rvo_agent_set_param(w, id, RVO_PARAM_Z, i % 11 == 0 ? 3.0 : 0.0);
            rvo_agent_set_param(w, id, RVO_PARAM_HEIGHT, i % 2 ? 2.0 : INFINITY);
            if (i % 29 == 0)
                rvo_agent_lock(w, id, 0.0f, 0.0f);
        }
        goal[2 * i] = xy[2];
        goal[2 * i + 1] = xy[3];
    }
    long before = 0;
    for (int s = 0; s < steps; ++s) {
        if (s == 2)
            before = c.calls; /* scratch and grids are sized by now */
        const float *p = rvo_world_positions_view(w);
        for (int i = 0; i < n; ++i) {
            float dx = goal[2 * i] - p[2 * i], dy = goal[2 * i + 1] - p[2 * i + 1];
            const float d = sqrtf(dx * dx + dy * dy);
            if (d > 2.0f)
                dx *= 2.0f / d, dy *= 2.0f / d;
            pref[2 * i] = dx;
            pref[2 * i + 1] = dy;
        }
        CHECK(rvo_world_set_pref_velocities(w, pref, n) == RVO_OK);
        if (h)
            h->in_step = 0;
        CHECK(rvo_world_step(w, 0) == RVO_OK);
    }
    if (step_allocs)
        *step_allocs = c.calls - before;
    const uint64_t hash = check_hash_world(w);
    rvo_world_destroy(w);
    free(goal);
    free(pref);
    return hash;
}

/* A two-thread world whose loops run through host h. */
static rvo_world *hosted_world(host *h) {
    rvo_world_def d = rvo_world_def_default();
    d.threads = 2;
    d.enqueue_task = enqueue;
    d.finish_task = finish;
    d.task_user = h;
    return rvo_world_create(&d, NULL);
}

int main(void) {
    /* The def's task fields: both or neither. */
    rvo_world_def wd = rvo_world_def_default();
    wd.enqueue_task = enqueue;
    CHECK(rvo_world_def_check(&wd, NULL) != RVO_OK);
    CHECK(rvo_world_create(&wd, NULL) == NULL);
    wd.enqueue_task = NULL;
    wd.finish_task = finish;
    rvo_error err;
    CHECK(rvo_world_def_check(&wd, &err) != RVO_OK && strstr(err.message, "enqueue_task") != NULL);
    wd.finish_task = NULL;
    CHECK(rvo_world_def_check(&wd, NULL) == RVO_OK);

    for (int mode = 0; mode < 3; ++mode) {
        const bool compat = mode == 1;
        const int n = 700, steps = 60;
        long allocs1 = -1, allocs2 = -1, allocs3 = -1;
        const uint64_t h1 = crossing(1, NULL, n, steps, mode, &allocs1);
        const uint64_t h2 = crossing(2, NULL, n, steps, mode, &allocs2);
        const uint64_t h3 = crossing(3, NULL, n, steps, mode, &allocs3);
        host inline_host = {0, 1, 0, 0, 0, 0}, reversed = {1, 3, 0, 0, 0, 0}, threaded = {2, 2, 0, 0, 0, 0};
        long allocs_hook = -1;
        const uint64_t hi = crossing(1, &inline_host, n, steps, mode, NULL);
        const uint64_t hr = crossing(3, &reversed, n, steps, mode, NULL);
        const uint64_t ht = crossing(2, &threaded, n, steps, mode, &allocs_hook);
        const char *name = mode == 1 ? "rvo2_compat" : mode == 2 ? "default, mixed agents" : "default";
        printf("%s: 1 thread %016llx, 2 threads %016llx, 3 threads %016llx, hooks %016llx %016llx %016llx\n",
               name, (unsigned long long)h1, (unsigned long long)h2, (unsigned long long)h3,
               (unsigned long long)hi, (unsigned long long)hr, (unsigned long long)ht);
        CHECK(h1 == h2);
        CHECK(h1 == h3);
        CHECK(h1 == hi);
        CHECK(h1 == hr);
        CHECK(h1 == ht);
        /* the hooks were used, once per solve at least, and finished */
        CHECK(inline_host.enqueued >= steps && inline_host.finished == 0);
        CHECK(reversed.enqueued >= steps && reversed.finished == reversed.enqueued);
        CHECK(threaded.enqueued >= steps && threaded.finished == threaded.enqueued);
        CHECK(threaded.last_min_range > 0);
        /* the overlap pass runs its loops through the hook too: candidates,
         * obstacle push-out per pass */
        if (!compat)
            CHECK(threaded.enqueued >= 3 * steps);
        /* no allocation in a step once the world has settled */
        printf("allocations in steps 2..%d: 1 thread %ld, 2 threads %ld, 3 threads %ld, hook %ld\n", steps,
               allocs1, allocs2, allocs3, allocs_hook);
        if (compat) {
            CHECK(allocs1 == 0);
            CHECK(allocs2 == 0);
            CHECK(allocs3 == 0);
            CHECK(allocs_hook == 0);
        } else {
            /* the overlap pass (separate.c) grows its candidate list as
             * the crowd gets denser: a few growths at most. On more
             * threads, each worker fills a region of its own, so how
             * often it grows also depends on how the workers shared the
             * agents: by a quarter each time, up to 2.5 times the lists
             * when one worker took them all (5 growths; under the
             * sanitizers, 3 threads on 2 cores reached 3) */
            CHECK(allocs1 <= 2);
            CHECK(allocs2 <= 5);
            CHECK(allocs3 <= 5);
            CHECK(allocs_hook <= 5);
            /* a host that skips agents and names a bad worker while the
             * overlap candidates are collected: the world collects what it
             * missed itself, same result */
            host skips = {5, 2, 0, 0, 0, 0};
            CHECK(crossing(2, &skips, n, steps, mode, NULL) == h1);
        }
    }

    /* A host that breaks the contract gets an error, not a crash. */
    for (int mode = 3; mode <= 4; ++mode) {
        host bad = {mode, 2, 0, 0, 0, 0};
        rvo_world *w = hosted_world(&bad);
        for (int i = 0; i < 10; ++i)
            rvo_world_add_agent(w, (float)i * 3.0f, 0.0f, NULL);
        CHECK(rvo_world_solve(w, 0.1f) == RVO_ERR_INVALID_ARGUMENT);
        CHECK(strstr(rvo_world_last_error(w), "task hook") != NULL);
        CHECK(!rvo_world_is_solved(w));
        CHECK(rvo_world_integrate(w, 0.1f) == RVO_ERR_PHASE);
        bad.mode = 0; /* a good host again: the world works */
        CHECK(rvo_world_step(w, 0.1f) == RVO_OK);
        rvo_world_destroy(w);
    }
    /* A host that runs the solve well but skips agents in the overlap
     * pass's later loops: integrate reports it (the solve cannot see it). */
    {
        host bad = {6, 2, 0, 0, 0, 0};
        rvo_world *w = hosted_world(&bad);
        const float box[] = {10, 10, 12, 10, 12, 12, 10, 12}; /* the obstacle push-out is a loop of its own */
        rvo_world_add_obstacle(w, box, 4, true);
        for (int i = 0; i < 40; ++i)
            rvo_world_add_agent(w, (float)(i % 8) * 0.5f, (float)(i / 8) * 0.5f, NULL);
        CHECK(rvo_world_solve(w, 0.1f) == RVO_OK);
        CHECK(rvo_world_integrate(w, 0.1f) == RVO_ERR_INVALID_ARGUMENT);
        CHECK(strstr(rvo_world_last_error(w), "task hook") != NULL);
        CHECK(!rvo_world_is_solved(w));
        bad.mode = 0; /* a good host again: the world works */
        CHECK(rvo_world_step(w, 0.1f) == RVO_OK);
        rvo_world_destroy(w);
    }
    return check_finish("threads");
}
