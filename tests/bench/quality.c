/* Avoidance quality on the scenes of quality_scenes.h, for the default mode
 * (hard bodies: strict overlap; "strict" is the same), the soft mode
 * (rvo_world_set_strict_overlap(false)) and the RVO2 mode (rvo2_compat).
 * Usage:
 *   quality <scene> [n] [default|soft|rvo2] [max_steps] [jitter] [seed]
 * max_steps 0 (the default) means 3 x the free-walking time. jitter [rad]
 * rotates every preferred velocity by a fresh uniform angle in
 * [-jitter, jitter] each step (seeded, so runs repeat); 0 = none.
 * Prints one CSV line:
 *   scene,n,mode,worst_overlap_pct,worst_intrusion_pct,makespan,free_steps,
 *   deadlock,p50,p90,p99,ms_per_step,home_at_end
 * makespan -1 when not everyone arrived within max_steps; deadlock 1 when
 * not everyone arrived within 2 x free_steps; pXX: steps until XX% of the
 * agents were home at once; ms_per_step: rvo_world_step alone; home_at_end:
 * agents home when the run ended.
 * The doorway's agents steer through the door with rvo_door_steer (the
 * library's two-way door lanes, as a game's path follower would);
 * QUALITY_NAIVE_DOOR=1 makes them head for the far side of the door
 * instead (qs_pref's naive follower, the steering before door lanes).
 * QUALITY_SCENE_SEED=k draws the crossing's start points and goals with
 * seed k instead of 42 (a single crossing moves by tens of agents home
 * between variants that change little; compare over several draws).
 * QUALITY_DUMP=1 in the environment prints the final positions and goals
 * to stderr (to look at a jam); QUALITY_TRACE=k prints every agent's
 * position every k steps ("t step agent x y", stderr) to watch one form. */
#define _POSIX_C_SOURCE 200809L
#include "quality_world.h"
#include "rvo.h"

#include <stdio.h>
#include <time.h>

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
    const char *name = argc > 1 ? argv[1] : "circle";
    const int n_arg = argc > 2 ? atoi(argv[2]) : 250;
    const char *mode = argc > 3 ? argv[3] : "default";
    int max_steps = argc > 4 ? atoi(argv[4]) : 0;
    const float jitter = argc > 5 ? (float)atof(argv[5]) : 0.0f;
    unsigned seed = argc > 6 ? (unsigned)atoi(argv[6]) : 1u;
    if (strcmp(mode, "strict") == 0)
        mode = "default"; /* strict overlap is the default */
    if (!qs_known(name) ||
        (strcmp(mode, "default") != 0 && strcmp(mode, "soft") != 0 && strcmp(mode, "rvo2") != 0) ||
        n_arg < 0) {
        fprintf(stderr,
                "usage: quality <circle|crossing|headon|cross4|corridor|doorway> [n] [default|soft|rvo2] "
                "[max_steps] [jitter] [seed]\n");
        return 2;
    }
    const char *scene_seed = getenv("QUALITY_SCENE_SEED"); /* (another draw of the crossing) */
    qscene s = qs_make_seeded(name, n_arg, scene_seed ? (unsigned)strtoul(scene_seed, NULL, 10) : 42u);
    const int n = s.n, free_steps = qs_free_steps(&s);
    if (max_steps <= 0)
        max_steps = 3 * free_steps;

    const rvo_world_def wd = qs_world_def(&s);
    rvo_world *w = rvo_world_create(&wd, NULL);
    rvo_world_set_rvo2_compat(w, strcmp(mode, "rvo2") == 0);
    if (strcmp(mode, "soft") == 0)
        rvo_world_set_strict_overlap(w, false);
    const float *op = s.obst;
    for (int k = 0; k < s.nobst; op += 2 * s.obst_count[k], ++k)
        if (!rvo_world_add_obstacle(w, op, s.obst_count[k], s.obst_closed[k])) {
            fprintf(stderr, "obstacle %d: %s\n", k, rvo_world_last_error(w));
            return 1;
        }
    for (int i = 0; i < n; ++i)
        rvo_world_add_agent(w, s.start[2 * i], s.start[2 * i + 1], NULL);

    float *pref = malloc(sizeof(float) * 2 * (size_t)(n > 0 ? n : 1));
    /* the door's waypoints (x, y per agent) and the agents' radii */
    float *way = malloc(sizeof(float) * 2 * (size_t)(n > 0 ? n : 1)),
          *radii = malloc(sizeof(float) * (size_t)(n > 0 ? n : 1));
    for (int i = 0; i < n; ++i)
        radii[i] = s.radius;
    const bool lanes = s.door && !getenv("QUALITY_NAIVE_DOOR");
    const rvo_door door =
        rvo_door_make(s.door_ab[0], s.door_ab[1], s.door_ab[2], s.door_ab[3], s.door_thickness);
    qs_grid grid = {0};
    double worst = 0, intrusion = 0, ms = 0;
    int makespan = -1, steps = 0, p50 = -1, p90 = -1, p99 = -1, home_end = 0;
    const int trace = getenv("QUALITY_TRACE") ? atoi(getenv("QUALITY_TRACE")) : 0;
    for (; steps < max_steps; ++steps) {
        const float *p = rvo_world_positions_view(w);
        if (trace > 0 && steps % trace == 0)
            for (int i = 0; i < n; ++i)
                fprintf(stderr, "t %d %d %.3f %.3f\n", steps, i, p[2 * i], p[2 * i + 1]);
        int home = 0;
        if (lanes && rvo_door_steer(&door, n, p, radii, s.goal, way, NULL) < 0)
            return 1;
        for (int i = 0; i < n; ++i) {
            const float a = jitter > 0 ? (float)((qs_rand(&seed) * 2.0 - 1.0) * jitter) : 0.0f;
            home += lanes ? qs_pref_to(&s, i, p[2 * i], p[2 * i + 1], way[2 * i], way[2 * i + 1], a,
                                       &pref[2 * i], &pref[2 * i + 1])
                          : qs_pref(&s, i, p[2 * i], p[2 * i + 1], a, &pref[2 * i], &pref[2 * i + 1]);
        }
        if (p50 < 0 && 2 * home >= n)
            p50 = steps;
        if (p90 < 0 && 10 * home >= 9 * n)
            p90 = steps;
        if (p99 < 0 && 100 * home >= 99 * n)
            p99 = steps;
        home_end = home;
        if (home == n) {
            makespan = steps;
            break;
        }
        rvo_world_set_pref_velocities(w, pref, n);
        const double t0 = now_ms();
        rvo_world_step(w, 0);
        ms += now_ms() - t0;
        p = rvo_world_positions_view(w);
        const double ov = qs_worst_overlap(&s, p, &grid);
        if (ov > worst)
            worst = ov;
        if (s.nobst > 0) {
            const double in = qs_worst_intrusion(&s, p);
            if (in > intrusion)
                intrusion = in;
        }
    }
    if (getenv("QUALITY_DUMP")) { /* final positions, to look at a jam */
        const float *p = rvo_world_positions_view(w);
        for (int i = 0; i < n; ++i)
            fprintf(stderr, "%d %.2f %.2f -> %.2f %.2f\n", i, p[2 * i], p[2 * i + 1], s.goal[2 * i],
                    s.goal[2 * i + 1]);
    }
    const bool deadlock = makespan < 0 || makespan > 2 * free_steps;
    printf("%s,%d,%s,%.3f,%.3f,%d,%d,%d,%d,%d,%d,%.3f,%d\n", name, n, mode, 100.0 * worst, 100.0 * intrusion,
           makespan, free_steps, deadlock ? 1 : 0, p50, p90, p99, steps ? ms / steps : 0.0, home_end);
    free(pref);
    free(way);
    free(radii);
    free(grid.head);
    free(grid.next);
    rvo_world_destroy(w);
    qs_free(&s);
    return 0;
}
