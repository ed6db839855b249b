/* Soak: a long run of a crowd with continuous churn, checking that
 *   - no position or velocity is ever NaN or infinite;
 *   - ids are never confused: every live agent still carries the tag it
 *     was created with (its groups value), every removed agent id and
 *     obstacle id stays invalid, every live one valid;
 *   - memory stays flat: the bytes the world holds (through its allocator
 *     hook) and the process RSS stop growing once capacities have settled.
 * Every step a few agents leave and as many arrive; every 10 steps an
 * obstacle is removed and another added; every 2000 steps the world is
 * saved and replaced by its loaded copy.
 *
 *   soak [STEPS [AGENTS [THREADS]]]     default 1000 steps, 2000 agents, 2 threads
 *
 * meson runs a short version (suite soak); the 1M-step run is by hand:
 * `build/tests/soak 1000000`. Progress lines every REPORT steps. */
#include "rvo.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define REMOVED_RING 4096

/* ---- allocator hook: live bytes, peak, calls ---- */
typedef struct mem {
    long long live, peak, calls;
} mem;

static void *hook(void *user, void *ptr, size_t old_size, size_t new_size) {
    mem *m = user;
    if (new_size == 0) {
        if (ptr)
            m->live -= (long long)old_size;
        free(ptr);
        return NULL;
    }
    void *p = realloc(ptr, new_size);
    if (p) {
        m->live += (long long)new_size - (long long)(ptr ? old_size : 0);
        if (m->live > m->peak)
            m->peak = m->live;
        m->calls++;
    }
    return p;
}

static long rss_kb(void) {
    FILE *f = fopen("/proc/self/statm", "r");
    long pages = 0, resident = 0;
    if (f) {
        if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
            resident = 0;
        fclose(f);
    }
    return resident * 4; /* 4 KiB pages */
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint32_t next(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}
static float uniform(float lo, float hi) { return lo + (hi - lo) * (float)(next() & 0xffffff) / 16777216.0f; }

/* Shadow state: per live agent its tag and goal, in arrays indexed by slot. */
typedef struct shadow {
    rvo_agent_id *ids;
    uint32_t *tag;
    float *goal;
    int32_t n, cap;
    rvo_agent_id removed[REMOVED_RING];
    int32_t nremoved;
    rvo_obstacle_id obst[64];
    int32_t nobst;
    rvo_obstacle_id removed_obst[REMOVED_RING];
    int32_t nremoved_obst;
} shadow;

static int failures;
#define FAIL(...)                                                                                            \
    do {                                                                                                     \
        fprintf(stderr, "soak: FAILED: " __VA_ARGS__);                                                       \
        fputc('\n', stderr);                                                                                 \
        if (++failures > 20)                                                                                 \
            exit(1);                                                                                         \
    } while (0)

static uint32_t serial = 1;

typedef struct id_k {
    rvo_agent_id id;
    int32_t k;
} id_k;

static int by_id(const void *a, const void *b) {
    const rvo_agent_id x = ((const id_k *)a)->id, y = ((const id_k *)b)->id;
    return x < y ? -1 : x > y;
}

static void add_agent(rvo_world *w, shadow *s, float x, float y) {
    rvo_agent_def d = rvo_agent_def_default();
    d.radius = 0.4f + 0.2f * (float)(next() % 3);
    d.max_speed = 1.5f;
    d.neighbor_dist = 8;
    d.time_horizon = 3;
    d.groups = serial++ | 0x80000000u; /* unique tag, never 0 so everyone avoids it */
    const rvo_agent_id id = rvo_world_add_agent(w, x, y, &d);
    if (!id) {
        FAIL("add_agent: %s", rvo_world_last_error(w));
        return;
    }
    for (int32_t k = 0; k < s->n; ++k)
        if (s->ids[k] == id)
            FAIL("id %llu issued twice", (unsigned long long)id);
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 1024;
        s->ids = realloc(s->ids, sizeof *s->ids * (size_t)s->cap);
        s->tag = realloc(s->tag, sizeof *s->tag * (size_t)s->cap);
        s->goal = realloc(s->goal, sizeof *s->goal * 2 * (size_t)s->cap);
    }
    s->ids[s->n] = id;
    s->tag[s->n] = d.groups;
    s->goal[2 * s->n] = uniform(-90, 90);
    s->goal[2 * s->n + 1] = uniform(-90, 90);
    s->n++;
}

static void remove_agent(rvo_world *w, shadow *s, int32_t k) {
    if (rvo_world_remove_agent(w, s->ids[k]) != RVO_OK)
        FAIL("remove_agent: %s", rvo_world_last_error(w));
    s->removed[s->nremoved++ % REMOVED_RING] = s->ids[k];
    s->n--;
    s->ids[k] = s->ids[s->n];
    s->tag[k] = s->tag[s->n];
    s->goal[2 * k] = s->goal[2 * s->n];
    s->goal[2 * k + 1] = s->goal[2 * s->n + 1];
}

static void add_obstacle(rvo_world *w, shadow *s) {
    const float x = uniform(-80, 80), y = uniform(-80, 80), a = uniform(1, 4), b = uniform(1, 4);
    rvo_obstacle_id id;
    if (next() % 2) {
        const float box[] = {x, y, x + a, y, x + a, y + b, x, y + b};
        id = rvo_world_add_obstacle(w, box, 4, true);
    } else {
        const float line[] = {x, y, x + a, y + b, x + 2 * a, y};
        id = rvo_world_add_obstacle(w, line, 3, false);
    }
    if (!id)
        FAIL("add_obstacle: %s", rvo_world_last_error(w));
    else
        s->obst[s->nobst++] = id;
}

static void remove_obstacle(rvo_world *w, shadow *s) {
    const int32_t k = (int32_t)(next() % (uint32_t)s->nobst);
    if (rvo_world_remove_obstacle(w, s->obst[k]) != RVO_OK)
        FAIL("remove_obstacle: %s", rvo_world_last_error(w));
    s->removed_obst[s->nremoved_obst++ % REMOVED_RING] = s->obst[k];
    s->obst[k] = s->obst[--s->nobst];
}

/* Ids and tags against the shadow, a sample each step and all of them at
 * reports. */
static void check_ids(const rvo_world *w, const shadow *s, bool all) {
    if (rvo_world_agent_count(w) != s->n)
        FAIL("agent count %d, expected %d", rvo_world_agent_count(w), s->n);
    if (rvo_world_obstacle_count(w) != s->nobst)
        FAIL("obstacle count %d, expected %d", rvo_world_obstacle_count(w), s->nobst);
    const int32_t stride = all ? 1 : 97;
    for (int32_t k = (int32_t)(next() % (uint32_t)stride); k < s->n; k += stride) {
        double g;
        if (rvo_agent_param(w, s->ids[k], RVO_PARAM_GROUPS, &g) != RVO_OK || (uint32_t)g != s->tag[k])
            FAIL("agent %llu lost its identity (tag %u, got %.0f)", (unsigned long long)s->ids[k], s->tag[k],
                 g);
    }
    const int32_t nr = s->nremoved < REMOVED_RING ? s->nremoved : REMOVED_RING;
    for (int32_t k = all ? 0 : (int32_t)(next() % 64); k < nr; k += all ? 1 : 64)
        if (rvo_agent_is_valid(w, s->removed[k]))
            FAIL("removed agent id %llu is valid again", (unsigned long long)s->removed[k]);
    for (int32_t k = 0; k < s->nobst; ++k)
        if (!rvo_obstacle_is_valid(w, s->obst[k]))
            FAIL("obstacle %llu invalid", (unsigned long long)s->obst[k]);
    const int32_t no = s->nremoved_obst < REMOVED_RING ? s->nremoved_obst : REMOVED_RING;
    for (int32_t k = 0; k < no; ++k)
        if (rvo_obstacle_is_valid(w, s->removed_obst[k]))
            FAIL("removed obstacle id is valid again");
}

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

int main(int argc, char **argv) {
    long steps = argc > 1 ? atol(argv[1]) : 1000;
    /* AddressSanitizer makes a step about 15 times slower and its quarantine
     * keeps freed memory resident: run a fifth of the steps there and judge
     * memory by the world's own bytes only. */
    if (UNDER_ASAN)
        steps = steps / 5 > 1 ? steps / 5 : 1;
    const int32_t agents = argc > 2 ? atoi(argv[2]) : 2000;
    const int32_t threads = argc > 3 ? atoi(argv[3]) : 2;
    const long report = steps >= 100000 ? 10000 : steps >= 10000 ? 1000 : 250;
    mem m = {0, 0, 0};
    rvo_world_def wd = rvo_world_def_default();
    wd.time_step = 0.1f;
    wd.threads = threads;
    wd.alloc = hook;
    wd.alloc_user = &m;
    rvo_world *w = rvo_world_create(&wd, NULL);
    shadow s;
    memset(&s, 0, sizeof s);
    for (int32_t i = 0; i < agents; ++i)
        add_agent(w, &s, uniform(-90, 90), uniform(-90, 90));
    for (int k = 0; k < 24; ++k)
        add_obstacle(w, &s);
    float *xy = malloc(sizeof(float) * 2 * (size_t)(agents + 64));
    float *pv = malloc(sizeof(float) * 2 * (size_t)(agents + 64));
    rvo_agent_id *order = malloc(sizeof *order * (size_t)(agents + 64));
    int32_t *slot_of = NULL;
    long long settled_live = -1;
    long settled_rss = -1;
    const long settle = steps / 10 > 200 ? steps / 10 : 200; /* capacities settle early */
    const clock_t t0 = clock();
    printf("soak: %ld steps, %d agents, %d threads\n", steps, agents, threads);
    for (long step = 1; step <= steps; ++step) {
        /* churn: 1% of the agents leave at random, as many arrive */
        const int32_t churn = agents / 100 > 1 ? agents / 100 : 1;
        for (int32_t c = 0; c < churn && s.n > 0; ++c)
            remove_agent(w, &s, (int32_t)(next() % (uint32_t)s.n));
        for (int32_t c = 0; c < churn; ++c)
            add_agent(w, &s, uniform(-90, 90), uniform(-90, 90));
        if (step % 10 == 0) {
            remove_obstacle(w, &s);
            add_obstacle(w, &s);
        }
        /* steer in bulk: the world's order, matched to the shadow by id */
        const int32_t n = rvo_world_agent_count(w);
        rvo_world_agent_ids(w, order, n);
        rvo_world_positions(w, xy, n);
        slot_of = realloc(slot_of, sizeof *slot_of * (size_t)n);
        {
            /* shadow index of each world index, through the shadow's ids
             * sorted (the shadow keeps its own order) */
            static id_k *sorted;
            static int32_t sorted_cap;
            if (sorted_cap < s.n) {
                sorted_cap = 2 * s.n;
                sorted = realloc(sorted, sizeof *sorted * (size_t)sorted_cap);
            }
            for (int32_t k = 0; k < s.n; ++k)
                sorted[k] = (id_k){s.ids[k], k};
            qsort(sorted, (size_t)s.n, sizeof *sorted, by_id);
            for (int32_t i = 0; i < n; ++i) {
                const id_k key = {order[i], 0};
                const id_k *hit = bsearch(&key, sorted, (size_t)s.n, sizeof *sorted, by_id);
                if (!hit)
                    FAIL("world agent %llu unknown to the shadow", (unsigned long long)order[i]);
                slot_of[i] = hit ? hit->k : 0;
            }
        }
        for (int32_t i = 0; i < n; ++i) {
            float *g = &s.goal[2 * slot_of[i]];
            float dx = g[0] - xy[2 * i], dy = g[1] - xy[2 * i + 1];
            const float d = sqrtf(dx * dx + dy * dy);
            if (d < 1.0f) { /* arrived: a new goal */
                g[0] = uniform(-90, 90);
                g[1] = uniform(-90, 90);
            }
            if (d > 1.5f)
                dx *= 1.5f / d, dy *= 1.5f / d;
            pv[2 * i] = dx;
            pv[2 * i + 1] = dy;
        }
        if (rvo_world_set_pref_velocities(w, pv, n) != RVO_OK)
            FAIL("set_pref_velocities: %s", rvo_world_last_error(w));
        if (rvo_world_step(w, 0) != RVO_OK)
            FAIL("step: %s", rvo_world_last_error(w));
        /* no NaN, ever */
        rvo_world_positions(w, xy, n);
        rvo_world_velocities(w, pv, n);
        for (int32_t k = 0; k < 2 * n; ++k)
            if (!isfinite(xy[k]) || !isfinite(pv[k])) {
                FAIL("step %ld: agent %d is not finite", step, k / 2);
                break;
            }
        check_ids(w, &s, step % report == 0);
        if (step % 2000 == 0) { /* replace the world by its snapshot */
            const size_t sz = rvo_world_save(w, NULL, 0);
            void *buf = malloc(sz);
            rvo_world_save(w, buf, sz);
            rvo_world *l = NULL;
            rvo_error err;
            if (rvo_world_load(buf, sz, &wd, &l, &err) != RVO_OK)
                FAIL("load: %s", err.message);
            else {
                rvo_world_destroy(w);
                w = l;
            }
            free(buf);
        }
        if (step == settle) {
            settled_live = m.live;
            settled_rss = rss_kb();
        }
        if (step % report == 0 || step == steps) {
            const double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
            printf("step %8ld  agents %5d  obstacles %3d  world bytes %9lld (peak %9lld)  rss %7ld KiB  %.3f "
                   "ms/step cpu\n",
                   step, rvo_world_agent_count(w), rvo_world_obstacle_count(w), m.live, m.peak, rss_kb(),
                   1000.0 * secs / (double)step);
            fflush(stdout);
        }
    }
    /* Memory flat: after settling, the world holds no more than the most it
     * held while settling grew to (capacities only double), and RSS grew by
     * less than 8 MiB (allocator noise, the snapshot buffers). */
    const long long final_live = m.live;
    const long final_rss = rss_kb();
    printf("memory: world bytes at step %ld %lld, at the end %lld, peak %lld; rss %ld -> %ld KiB\n", settle,
           settled_live, final_live, m.peak, settled_rss, final_rss);
    if (settled_live >= 0 && final_live > settled_live * 5 / 4)
        FAIL("world memory grew from %lld to %lld bytes after settling", settled_live, final_live);
    if (UNDER_ASAN)
        printf("memory: rss not judged under AddressSanitizer (its quarantine keeps freed memory)\n");
    else if (settled_rss >= 0 && final_rss - settled_rss > 8192)
        FAIL("rss grew by %ld KiB after settling", final_rss - settled_rss);
    rvo_world_destroy(w);
    if (m.live != 0)
        FAIL("%lld bytes still held after destroy", m.live);
    free(xy);
    free(pv);
    free(order);
    free(slot_of);
    free(s.ids);
    free(s.tag);
    free(s.goal);
    printf("soak: %s\n", failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
