/* The scene matrix of issue 16 (part 2): symmetric encounters that must
 * resolve sideways, in the default mode. Every agent walks 24 m along its
 * direction (constant preferred velocities, or goal-seeking towards the
 * point 24 m on; the ring: its antipode, 22 m), radius 0.5, dt 0.1,
 * neighbour distance 10, for each time horizon 1, 2, 5, 10 s and max
 * speed 1, 2, 4. A case passes when every agent gets 20 m past its start
 * within 2.5 x the free time + 10 s, nobody is pushed back more than one
 * radius along its way (from the farthest it had come, at most its goal:
 * walking back to a goal it overshot is its own doing), the worst overlap
 * stays <= 1% of ri + rj and nobody enters a wall.
 *   scene_matrix [-v]          every case (-v: the passing ones too)
 *   scene_matrix SCENE TH V G  one case (G: 1 goal-seeking, 0 constant),
 *                              on 1 and 2 threads, with the positions' hash;
 *                              exits 1 if it fails or the hashes differ
 *                              (SCENE_TRACE=k: agent k's every step)
 *   scene_matrix --require SCENE...  every case of those scenes; exits 1
 *                              if one fails (the meson test scene_matrix)
 *   scene_matrix --wide [-v]   the wider set: head-on pairs at lateral
 *                              offsets of 0-4 radii (headonK: K radii)
 *                              and rings of 4-32 (ringN: N agents), every
 *                              case, failures only (-v: all)
 *   scene_matrix --settings    the matrix (and the wider set) at other
 *                              time steps and neighbour distances, and at
 *                              the settings of issue 16's head-on pair
 *                              (radius 1, dt 0.25, neighbour distance 10:
 *                              here dt 0.25, distance 5, max speeds 0.5,
 *                              1 and 2, the same case in half the units):
 *                              the failures per setting, and the matrix's
 *                              worst push-backs summed (which cases fail
 *                              moves with any change to the rules: the
 *                              sum shows whether push-backs shrink)
 * Before any of these, --dt S and --nd M change the setting, and --speed K
 * makes the matrix's max speeds 1, 2 and 4 times K (one case walks at V).
 * Scenes: cross2 (90 degrees), cross4, columns (5 against 5 in one line),
 * ring (16 to the antipodes; ringN: N of them), corridor (a head-on pair
 * between walls 2.5 m apart), blocks (4 x 4 through 4 x 4), headonK (a
 * pair K radii apart sideways). Figures: docs/quality.md. */
#include "rvo.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The setting: time step [s], neighbour distance [m], max speeds' factor. */
typedef struct setting {
    float dt, nd, speed;
} setting;
static const setting standard = {0.1f, 10.0f, 1.0f};

enum { MAXA = 64 }; /* (rings of up to 64) */
typedef struct scene {
    int n;
    float sx[MAXA], sy[MAXA], dx[MAXA], dy[MAXA], dist[MAXA];
    int corridor;
} scene;

static scene make(const char *name) {
    scene s;
    memset(&s, 0, sizeof s);
#define ADD(x, y, ddx, ddy, D)                                                                               \
    (s.sx[s.n] = (x), s.sy[s.n] = (y), s.dx[s.n] = (ddx), s.dy[s.n] = (ddy), s.dist[s.n] = (D), s.n++)
    if (!strcmp(name, "cross2")) {
        ADD(-12, 0, 1, 0, 24);
        ADD(0, -12, 0, 1, 24);
    } else if (!strcmp(name, "cross4")) {
        ADD(-12, 0, 1, 0, 24);
        ADD(12, 0, -1, 0, 24);
        ADD(0, -12, 0, 1, 24);
        ADD(0, 12, 0, -1, 24);
    } else if (!strcmp(name, "columns")) {
        for (int k = 0; k < 5; ++k) {
            ADD(-12 - 1.5f * k, 0, 1, 0, 24);
            ADD(12 + 1.5f * k, 0, -1, 0, 24);
        }
    } else if (!strncmp(name, "ring", 4) && (name[4] == 0 || atoi(name + 4) > 0)) {
        int n = name[4] ? atoi(name + 4) : 16;
        n = n < MAXA ? n : MAXA;
        for (int k = 0; k < n; ++k) {
            const float a = 6.2831853f * k / n;
            ADD(11 * cosf(a), 11 * sinf(a), -cosf(a), -sinf(a), 22);
        }
    } else if (!strncmp(name, "headon", 6) && name[6]) {
        const float off = 0.5f * (float)atof(name + 6); /* K radii of 0.5 m */
        ADD(-12, 0.5f * off, 1, 0, 24);
        ADD(12, -0.5f * off, -1, 0, 24);
    } else if (!strcmp(name, "corridor")) {
        ADD(-12, 0, 1, 0, 24);
        ADD(12, 0, -1, 0, 24);
        s.corridor = 1;
    } else if (!strcmp(name, "blocks")) {
        for (int i = 0; i < 4; ++i)
            for (int k = 0; k < 4; ++k) {
                ADD(-14 - 1.2f * i, -1.8f + 1.2f * k, 1, 0, 24);
                ADD(14 + 1.2f * i, -1.8f + 1.2f * k, -1, 0, 24);
            }
    } else {
        fprintf(stderr, "scene?\n");
        exit(2);
    }
    return s;
}

/* returns 1 if ok; prints the case if it fails or verbose > 0, never
 * if verbose < 0 */
static int run(const char *name, setting st, float th, float vmax, int goal, int verbose, int threads,
               unsigned long long *hash, float *worst_back) {
    scene s = make(name);
    rvo_world_def wd = rvo_world_def_default();
    wd.time_step = st.dt;
    wd.agent.radius = 0.5f;
    wd.agent.max_speed = vmax;
    wd.agent.neighbor_dist = st.nd;
    wd.agent.max_neighbors = 16;
    wd.agent.time_horizon = th;
    wd.threads = threads;
    rvo_world *w = rvo_world_create(&wd, NULL);
    rvo_agent_id id[MAXA];
    for (int i = 0; i < s.n; ++i)
        id[i] = rvo_world_add_agent(w, s.sx[i], s.sy[i], NULL);
    if (s.corridor) {
        const float top[] = {-20, 1.25f, 20, 1.25f, 20, 3, -20, 3};
        const float bot[] = {-20, -3, 20, -3, 20, -1.25f, -20, -1.25f};
        rvo_world_add_obstacle(w, top, 4, true);
        rvo_world_add_obstacle(w, bot, 4, true);
    }
    float best[MAXA], back = 0, overlap = 0, intrusion = 0;
    int back_agent = -1, back_step = -1;           /* the worst push-back: whose, when */
    const char *trace_env = getenv("SCENE_TRACE"); /* an agent's index: its every step (one case) */
    const int trace = hash && trace_env ? atoi(trace_env) : -1;
    for (int i = 0; i < s.n; ++i)
        best[i] = 0;
    const int limit = (int)((2.5f * 24.0f / vmax + 10.0f) / st.dt);
    int done_step = -1;
    for (int step = 0; step < limit; ++step) {
        int done = 1;
        for (int i = 0; i < s.n; ++i) {
            rvo_vec2 p;
            rvo_agent_position(w, id[i], &p);
            const float prog = (p.x - s.sx[i]) * s.dx[i] + (p.y - s.sy[i]) * s.dy[i];
            if (prog < 20 - 1e-3f)
                done = 0;
            if (goal) {
                const float gx = s.sx[i] + s.dx[i] * s.dist[i], gy = s.sy[i] + s.dy[i] * s.dist[i];
                float ex = gx - p.x, ey = gy - p.y, d = hypotf(ex, ey);
                const float sp = d < vmax * st.dt ? d / st.dt : vmax; /* (reaches it this step) */
                if (d > 1e-6f)
                    rvo_agent_set_pref_velocity(w, id[i], ex / d * sp, ey / d * sp);
                else
                    rvo_agent_set_pref_velocity(w, id[i], 0, 0);
            } else {
                rvo_agent_set_pref_velocity(w, id[i], s.dx[i] * vmax, s.dy[i] * vmax);
            }
        }
        if (done) {
            done_step = step;
            break;
        }
        rvo_world_step(w, 0);
        for (int i = 0; i < s.n; ++i) {
            rvo_vec2 p;
            rvo_agent_position(w, id[i], &p);
            const float prog = (p.x - s.sx[i]) * s.dx[i] + (p.y - s.sy[i]) * s.dy[i];
            /* (up to its goal: walking back to it after an overshoot is not a push) */
            const float reached = goal && prog > s.dist[i] ? s.dist[i] : prog;
            if (reached > best[i])
                best[i] = reached;
            if (trace == i && threads == 1) {
                rvo_vec2 v, f;
                float stall = 0;
                rvo_agent_velocity(w, id[i], &v);
                rvo_agent_pref_velocity(w, id[i], &f);
                rvo_agent_stall_time(w, id[i], &stall);
                printf("%4d p %7.3f %7.3f v %6.3f %6.3f pref %6.3f %6.3f prog %6.2f back %5.2f stall %4.1f\n",
                       step, p.x, p.y, v.x, v.y, f.x, f.y, prog, best[i] - prog, stall);
            }
            if (best[i] - prog > back) {
                back = best[i] - prog;
                back_agent = i, back_step = step;
            }
            if (s.corridor) {
                const float in = fabsf(p.y) + 0.5f - 1.25f;
                if (in > intrusion)
                    intrusion = in;
            }
            for (int j = i + 1; j < s.n; ++j) {
                rvo_vec2 q;
                rvo_agent_position(w, id[j], &q);
                const float ov = 1.0f - hypotf(p.x - q.x, p.y - q.y) / 1.0f;
                if (ov > overlap)
                    overlap = ov;
            }
        }
    }
    if (hash && back > 0)
        printf("worst push-back: agent %d at step %d\n", back_agent, back_step);
    if (hash) {
        unsigned long long h = 1469598103934665603ull;
        for (int i = 0; i < s.n; ++i) {
            rvo_vec2 p;
            rvo_agent_position(w, id[i], &p);
            unsigned char b[8];
            memcpy(b, &p, 8);
            for (int k = 0; k < 8; ++k)
                h = (h ^ b[k]) * 1099511628211ull;
        }
        *hash = h;
    }
    rvo_world_destroy(w);
    if (worst_back)
        *worst_back = back;
    const int ok = done_step >= 0 && back <= 0.5f + 1e-4f && overlap <= 0.01f && intrusion <= 1e-3f;
    if (verbose >= 0 && (!ok || verbose))
        printf("%-8s %s th %4.1f v %g: done %5d back %.3f overlap %.2f%% intrusion %.3f%s\n", name,
               goal ? "goal " : "const", th, vmax, done_step, back, 100 * overlap, intrusion,
               ok ? "" : "  FAIL");
    return ok;
}

/* A scene's cases: goal-seeking or not, four horizons, three max speeds. */
static const float horizons[] = {1, 2, 5, 10}, speeds[] = {1, 2, 4};
#define NHORIZONS ((int)(sizeof horizons / sizeof *horizons))
#define NSPEEDS ((int)(sizeof speeds / sizeof *speeds))
#define CASES (2 * NHORIZONS * NSPEEDS)

/* Every case of the scenes; failures counted per scene into per[] (may be
 * NULL), each case's worst push-back summed into *back_sum (may be NULL);
 * returns the failures. */
static int matrix(const char *const *scenes, int nscenes, setting st, int verbose, int *per,
                  double *back_sum) {
    int fails = 0;
    for (int sc = 0; sc < nscenes; ++sc)
        for (int g = 0; g < 2; ++g)
            for (int t = 0; t < NHORIZONS; ++t)
                for (int v = 0; v < NSPEEDS; ++v) {
                    float back = 0.0f;
                    const int bad =
                        !run(scenes[sc], st, horizons[t], speeds[v] * st.speed, g, verbose, 1, NULL, &back);
                    if (back_sum)
                        *back_sum += back;
                    fails += bad;
                    if (per)
                        per[sc] += bad;
                }
    return fails;
}

static void print_per(const char *const *scenes, int nscenes, const int *per) {
    const char *sep = " (";
    for (int sc = 0; sc < nscenes; ++sc)
        if (per[sc] > 0) {
            printf("%s%s %d", sep, scenes[sc], per[sc]);
            sep = ", ";
        }
    printf("%s", strcmp(sep, ", ") ? "" : ")");
}

int main(int argc, char **argv) {
    setting st = standard;
    while (argc > 2 &&
           (!strcmp(argv[1], "--dt") || !strcmp(argv[1], "--nd") || !strcmp(argv[1], "--speed"))) {
        const float x = (float)atof(argv[2]);
        if (!(x > 0.0f && x < 1e3f)) {
            fprintf(stderr, "scene_matrix: %s wants a positive number\n", argv[1]);
            return 2;
        }
        if (!strcmp(argv[1], "--dt"))
            st.dt = x;
        else if (!strcmp(argv[1], "--nd"))
            st.nd = x;
        else
            st.speed = x;
        argc -= 2, argv += 2;
    }
    if (argc == 5) {
        unsigned long long h1, h2;
        const float th = (float)atof(argv[2]), v = (float)atof(argv[3]);
        const int ok = run(argv[1], st, th, v, atoi(argv[4]), 1, 1, &h1, NULL);
        run(argv[1], st, th, v, atoi(argv[4]), 0, 2, &h2, NULL);
        printf("positions hash: %016llx on 1 thread, %016llx on 2\n", h1, h2);
        return ok && h1 == h2 ? 0 : 1;
    }
    static const char *const all[] = {"cross2", "cross4", "columns", "ring", "corridor", "blocks"};
    static const char *const wider[] = {"headon0", "headon0.5", "headon1", "headon2", "headon3", "headon4",
                                        "ring4",   "ring8",     "ring12",  "ring20",  "ring24",  "ring32"};
    const int nall = (int)(sizeof all / sizeof *all), nwider = (int)(sizeof wider / sizeof *wider);
    if (argc == 2 && !strcmp(argv[1], "--settings")) {
        static const struct {
            setting s;
            const char *note;
        } sweep[] = {{{1.0f / 60.0f, 10, 1}, ""},
                     {{0.05f, 10, 1}, ""},
                     {{0.1f, 10, 1}, ""},
                     {{0.25f, 10, 1}, ""},
                     {{0.1f, 5, 1}, ""},
                     {{0.1f, 15, 1}, ""},
                     {{0.25f, 5, 0.5f}, " (the head-on pair's)"}};
        int fails_all = 0;
        double back_all = 0.0;
        for (size_t k = 0; k < sizeof sweep / sizeof *sweep; ++k) {
            int per[sizeof all / sizeof *all] = {0}, per_wide[sizeof wider / sizeof *wider] = {0};
            const setting s = sweep[k].s;
            double back = 0.0;
            printf("dt %.4g s, neighbour distance %g m, max speeds %g, %g, %g%s: ", s.dt, s.nd,
                   speeds[0] * s.speed, speeds[1] * s.speed, speeds[2] * s.speed, sweep[k].note);
            const int fails = matrix(all, nall, s, -1, per, &back);
            printf("%d of %d failed", fails, nall * CASES);
            print_per(all, nall, per);
            printf(", push-back summed %.2f m", back);
            printf("; wider: %d of %d", matrix(wider, nwider, s, -1, per_wide, NULL), nwider * CASES);
            print_per(wider, nwider, per_wide);
            printf("\n");
            fflush(stdout);
            fails_all += fails;
            back_all += back;
        }
        printf("every setting: %d of %d failed, push-back summed %.2f m\n", fails_all,
               (int)(sizeof sweep / sizeof *sweep) * nall * CASES, back_all);
        return 0;
    }
    const char *const *scenes = all;
    int nscenes = nall;
    const int require = argc > 2 && !strcmp(argv[1], "--require");
    const int wide = (argc == 2 || (argc == 3 && !strcmp(argv[2], "-v"))) && !strcmp(argv[1], "--wide");
    if (require)
        scenes = (const char *const *)argv + 2, nscenes = argc - 2;
    if (wide)
        scenes = wider, nscenes = nwider;
    const int verbose = argc > 1 && !require && (!wide || argc == 3);
    double back = 0.0;
    const int fails = matrix(scenes, nscenes, st, verbose, NULL, &back);
    printf("%d of %d failed, push-back summed %.2f m\n", fails, nscenes * CASES, back);
    return require && fails > 0;
}
