/* The host allocator hook (rvo_world_def.alloc) is told each block's true
 * size on every resize and free: sized allocators (arenas, pools, engines'
 * tracked heaps) depend on it. A bookkeeping allocator checks that for every
 * call, and an allocation failing at each point in turn must leave the world
 * usable, with every later old_size still right and nothing leaked. */
#include "check.h"
#include "rvo.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_BLOCKS 256

typedef struct sized {
    void *ptr[MAX_BLOCKS];
    size_t size[MAX_BLOCKS];
    int nblocks;
    long calls, fail_at; /* fail_at: the call that returns NULL (0 = never) */
    int wrong_size;      /* calls whose old_size was not the block's size */
} sized;

static int find_block(sized *s, void *p) {
    for (int k = 0; k < s->nblocks; ++k)
        if (s->ptr[k] == p)
            return k;
    return -1;
}

static void *sized_alloc(void *user, void *ptr, size_t old_size, size_t new_size) {
    sized *s = user;
    int k = -1;
    if (ptr) {
        k = find_block(s, ptr);
        if (k < 0 || s->size[k] != old_size)
            ++s->wrong_size;
    } else if (old_size != 0) {
        ++s->wrong_size;
    }
    if (new_size == 0) {
        if (k >= 0) {
            s->ptr[k] = s->ptr[s->nblocks - 1];
            s->size[k] = s->size[s->nblocks - 1];
            --s->nblocks;
        }
        free(ptr);
        return NULL;
    }
    if (++s->calls == s->fail_at)
        return NULL;
    void *q = realloc(ptr, new_size);
    if (!q)
        return NULL;
    if (k < 0) {
        if (s->nblocks == MAX_BLOCKS)
            abort(); /* the test's own limit */
        k = s->nblocks++;
    }
    s->ptr[k] = q;
    s->size[k] = new_size;
    return q;
}

/* Adds agents, an obstacle and steps; stops at the first failure. Returns
 * true when everything went through. */
static bool build(rvo_world *w, int agents) {
    for (int i = 0; i < agents; ++i) {
        const rvo_agent_id id = rvo_world_add_agent(w, (float)(i % 10) * 2.0f, (float)(i / 10) * 2.0f, NULL);
        if (id == 0)
            return false;
        if (rvo_agent_set_pref_velocity(w, id, 1.0f, 0.5f) != RVO_OK)
            return false;
    }
    const float box[8] = {30, 0, 32, 0, 32, 2, 30, 2};
    const rvo_obstacle_id o = rvo_world_add_obstacle(w, box, 4, true);
    if (o == 0)
        return false;
    /* reshaped over some agents (their push-outs are filed: memory), back */
    const float over[8] = {1, 1, 5, 1, 5, 5, 1, 5};
    if (rvo_obstacle_set_points(w, o, over, 4) != RVO_OK) {
        float got[8];
        CHECK(rvo_obstacle_points(w, o, got, 4, NULL) == 4 && memcmp(got, box, sizeof box) == 0);
        return false;
    }
    if (rvo_obstacle_set_points(w, o, box, 4) != RVO_OK)
        return false;
    for (int s = 0; s < 3; ++s)
        if (rvo_world_step(w, 0.0f) != RVO_OK)
            return false;
    /* lock timers: their array is made on first use, then grows with the agents */
    rvo_agent_id first;
    rvo_world_agent_ids(w, &first, 1);
    if (rvo_world_solve(w, 0.1f) != RVO_OK || rvo_world_lock_solved(w, 0.01f, 0.5, 0.2, INFINITY, ~0u) < 0 ||
        rvo_world_integrate(w, 0.1f) != RVO_OK || rvo_world_release_pushed(w) < 0 ||
        rvo_agent_set_auto_lock(w, first, false) != RVO_OK || rvo_world_advance_locks(w, 0.1) < 0)
        return false;
    CHECK(rvo_agent_auto_lock(w, first) == 0);
    return true;
}

static size_t live_bytes(const sized *s) {
    size_t n = 0;
    for (int k = 0; k < s->nblocks; ++k)
        n += s->size[k];
    return n;
}

/* A world that never uses lock timers holds no room for them (40 bytes per
 * agent): made by the first rvo_world_lock_solved. */
static void lock_timers_on_demand(rvo_world_def def) {
    sized s;
    memset(&s, 0, sizeof s);
    def.alloc_user = &s;
    rvo_world *w = rvo_world_create(&def, NULL);
    for (int i = 0; i < 1000; ++i) {
        const rvo_agent_id id = rvo_world_add_agent(w, (float)(i % 40) * 2.0f, (float)(i / 40) * 2.0f, NULL);
        CHECK(id != 0 && rvo_agent_set_pref_velocity(w, id, 1.0f, 0.0f) == RVO_OK);
    }
    CHECK(rvo_world_step(w, 0.0f) == RVO_OK);
    CHECK(rvo_agent_set_auto_lock(w, 1, true) == RVO_OK && rvo_agent_auto_lock(w, 1) == 1); /* (no change) */
    double left = -1;
    CHECK(rvo_agent_lock_time(w, 1, &left) == RVO_OK && left == 0.0);
    CHECK(rvo_world_advance_locks(w, 0.1) == 0 && rvo_world_release_pushed(w) == 0);
    const size_t before = live_bytes(&s);
    CHECK(rvo_world_solve(w, 0.1f) == RVO_OK);
    CHECK(rvo_world_lock_solved(w, 0.01f, 0.5, 0.5, INFINITY, ~0u) >= 0);
    const size_t after = live_bytes(&s);
    printf("lock timers: %zu bytes before the first lock_solved, %zu after\n", before, after);
    CHECK(after >= before + 1000 * 40);
    CHECK(rvo_agent_lock_time(w, 1, &left) == RVO_OK && left == 0.5);
    rvo_world_destroy(w);
    CHECK(s.nblocks == 0 && s.wrong_size == 0);
}

int main(void) {
    rvo_world_def def = rvo_world_def_default();
    def.alloc = sized_alloc;

    /* A full run: count the calls, every size right. */
    sized s0;
    memset(&s0, 0, sizeof s0);
    def.alloc_user = &s0;
    rvo_world *w = rvo_world_create(&def, NULL);
    CHECK(w != NULL);
    CHECK(build(w, 40));
    rvo_world_destroy(w);
    CHECK(s0.wrong_size == 0);
    CHECK(s0.nblocks == 0);
    const long total = s0.calls;
    CHECK(total > 10);

    /* Fail each allocation in turn; then allocate freely, keep using the
     * world, destroy it. */
    int failed = 0;
    for (long k = 1; k <= total; ++k) {
        sized s;
        memset(&s, 0, sizeof s);
        s.fail_at = k;
        def.alloc_user = &s;
        w = rvo_world_create(&def, NULL);
        if (!w) {
            CHECK(s.nblocks == 0);
            CHECK(s.wrong_size == 0);
            continue;
        }
        if (!build(w, 40))
            ++failed;
        s.fail_at = 0;
        CHECK(build(w, 60)); /* the world is intact and grows again */
        CHECK(rvo_world_agent_count(w) >= 60);
        rvo_world_destroy(w);
        if (s.wrong_size != 0 || s.nblocks != 0)
            fprintf(stderr, "failing call %ld: %d wrong old sizes, %d blocks left\n", k, s.wrong_size,
                    s.nblocks);
        CHECK(s.wrong_size == 0);
        CHECK(s.nblocks == 0);
    }
    printf("%ld allocation points, %d failed a build cleanly\n", total, failed);
    CHECK(failed > 0);
    lock_timers_on_demand(def);
    return check_finish("alloc");
}
