/* Timing of the named scenes of scenes.h, driven from C (preferred
 * velocities set in one bulk call per step). Prints one CSV line:
 *   scenario,n,threads,runtime,ms_per_step,us_per_agent_step,bytes_per_agent,mode
 * runtime is "c" (the built-in pool) or "c-hook" (mode hook: a host task
 * system through rvo_world_def.enqueue_task, here a small pthread one).
 * bytes_per_agent: the world's peak heap (allocator hook) over n.
 *
 * Usage: bench [scenario [n [threads [warm [steps [solver [mode]]]]]]]
 *   solver: orca (default), ue or rvo
 *   mode: "default" (overlap resolution on), "plain" (rvo2_compat: exactly
 *   RVO2's work), "features" (plain, with weights 0.3..0.7, a group mask and
 *   finite heights on every agent, so every game check runs), "hook"
 *   (default, with the solve run by the host task system below), "moving"
 *   (default, every obstacle moving at 0.1 m/s, alternately along x and y)
 *   or "moving1" (default, the first obstacle only, at 0.5 m/s along x). */
#include "scenes.h"

#include <pthread.h>

/* ---- a host task system for mode hook: each enqueued loop is split into
 * one slice per worker; slices 1.. run on threads started for the loop (an
 * engine would hand them to its job system), slice 0 runs inline. */
typedef struct host_slice {
    rvo_task_fn *fn;
    void *ctx;
    int32_t begin, end;
    uint32_t worker;
    pthread_t thread;
    bool started;
} host_slice;

typedef struct host_sched {
    int workers;
    host_slice slices[64];
} host_sched;

static void *host_thread(void *p) {
    host_slice *t = p;
    t->fn(t->begin, t->end, t->worker, t->ctx);
    return NULL;
}

static void *host_enqueue(rvo_task_fn *fn, int32_t count, int32_t min_range, void *task_ctx, void *user) {
    host_sched *s = user;
    int k = s->workers;
    if (k > count / (min_range > 0 ? min_range : 1))
        k = count / (min_range > 0 ? min_range : 1);
    if (k < 1)
        k = 1;
    for (int i = 0; i < k; ++i) {
        host_slice *t = &s->slices[i];
        t->fn = fn;
        t->ctx = task_ctx;
        t->begin = (int32_t)((int64_t)count * i / k);
        t->end = (int32_t)((int64_t)count * (i + 1) / k);
        t->worker = (uint32_t)i;
        t->started = i > 0 && pthread_create(&t->thread, NULL, host_thread, t) == 0;
    }
    for (int i = 0; i < k; ++i)
        if (!s->slices[i].started)
            host_thread(&s->slices[i]); /* slice 0, or no thread */
    for (int i = k; i < 64; ++i)
        s->slices[i].started = false;
    return s;
}

static void host_finish(void *task, void *user) {
    host_sched *s = task;
    (void)user;
    for (int i = 1; i < 64; ++i)
        if (s->slices[i].started)
            pthread_join(s->slices[i].thread, NULL), s->slices[i].started = false;
}

int main(int argc, char **argv) {
    const char *name = argc > 1 ? argv[1] : "circle";
    const int n_arg = argc > 2 ? atoi(argv[2]) : 1000;
    const int threads = argc > 3 ? atoi(argv[3]) : 1;
    const int warm = argc > 4 ? atoi(argv[4]) : 100;
    const int steps = argc > 5 ? atoi(argv[5]) : 200;
    const char *solver = argc > 6 ? argv[6] : NULL; /* orca (default), ue or rvo */
    if (!scene_known(name)) {
        fprintf(stderr, "unknown scenario '%s' (circle, random, plaza, blocks)\n", name);
        return 2;
    }
    if (solver && rvo_solver_from_name(solver) < 0) {
        fprintf(stderr, "unknown solver '%s' (orca, ue, rvo)\n", solver);
        return 2;
    }
    const char *mode = argc > 7 ? argv[7] : "default";
    if (strcmp(mode, "default") != 0 && strcmp(mode, "plain") != 0 && strcmp(mode, "features") != 0 &&
        strcmp(mode, "hook") != 0 && strcmp(mode, "moving") != 0 && strcmp(mode, "moving1") != 0) {
        fprintf(stderr, "unknown mode '%s' (default, plain, features, hook, moving, moving1)\n", mode);
        return 2;
    }
    if (n_arg < 1 || threads < 1 || threads > 64 || warm < 0 || steps < 0) {
        fprintf(stderr, "bad n, threads, warm or steps\n");
        return 2;
    }
    alloc_count mem = {0, 0};
    host_sched sched = {threads, {{0}}};
    const bool hook = strcmp(mode, "hook") == 0;
    scene s = make_hooked(name, n_arg, threads, &mem, hook ? host_enqueue : NULL, hook ? host_finish : NULL,
                          hook ? &sched : NULL);
    const int n = s.n;
    if (solver)
        rvo_world_set_solver(s.w, (rvo_solver)rvo_solver_from_name(solver));
    if (strcmp(mode, "plain") == 0 || strcmp(mode, "features") == 0)
        rvo_world_set_rvo2_compat(s.w, true);
    if (strncmp(mode, "moving", 6) == 0) {
        const bool one = strcmp(mode, "moving1") == 0;
        const int32_t no = rvo_world_obstacle_count(s.w);
        rvo_obstacle_id *oids = malloc(sizeof *oids * (size_t)(no > 0 ? no : 1));
        rvo_world_obstacle_ids(s.w, oids, no);
        for (int32_t k = 0; k < (one && no > 0 ? 1 : no); ++k)
            rvo_obstacle_set_velocity(s.w, oids[k], one ? 0.5f : (k % 2 ? 0.0f : 0.1f),
                                      one ? 0.0f : (k % 2 ? 0.1f : 0.0f));
        free(oids);
    }
    if (strcmp(mode, "features") == 0) {
        for (int i = 0; i < n; ++i) {
            rvo_agent_set_param(s.w, s.ids[i], RVO_PARAM_WEIGHT, 0.3 + 0.1 * (i % 5));
            rvo_agent_set_param(s.w, s.ids[i], RVO_PARAM_GROUPS, 1 + (i % 2));
            rvo_agent_set_param(s.w, s.ids[i], RVO_PARAM_MASK, 3);
            rvo_agent_set_param(s.w, s.ids[i], RVO_PARAM_HEIGHT, 2.0);
        }
    }
    for (int k = 0; k < warm; ++k) {
        set_prefs(&s);
        rvo_world_step(s.w, 0);
    }
    const bool cpu = threads == 1 && !getenv("RVO_BENCH_WALL"); /* set it to compare thread counts */
    const double t0 = cpu ? cpu_ms() : now_ms();
    for (int k = 0; k < steps; ++k) {
        set_prefs(&s);
        rvo_world_step(s.w, 0);
    }
    const bool other_solver = solver && strcmp(solver, "orca") != 0; /* named in the mode column */
    const double ms = steps > 0 ? ((cpu ? cpu_ms() : now_ms()) - t0) / steps : 0.0;
    printf("%s,%d,%d,%s,%.4f,%.4f,%.0f,%s%s%s,%s,,\n", name, n, threads, hook ? "c-hook" : "c", ms,
           ms * 1000.0 / n, (double)mem.peak / n, mode, other_solver ? "-" : "", other_solver ? solver : "",
           cpu ? "cpu" : "wall");
    free_scene(&s);
    return 0;
}
