/* Conformance with the RVO2 library, on RVO2's own traces
 * (tests/data/rvo2, see its README):
 *   replay  - at every recorded step, load RVO2's state and preferred
 *             velocities, solve once, compare the new velocities with RVO2's
 *             next state: >= 99.5% of agent-steps within 1e-3.
 *   freerun - replay only the preferred velocities of Blocks: positions
 *             within 1e-3 of RVO2's for the first 50 steps.
 *   home    - the full circle of 250 with its goal logic: every agent
 *             arrives; the step count is printed next to RVO2's 1426.
 * Exit 77 (skip) when the traces are not there. */
#include "check.h"
#include "rvo.h"

#include <stdlib.h>
#include <string.h>

typedef struct trace {
    int steps; /* states 0..steps-1 */
    int agents;
    float *s;   /* [step][agent][x y vx vy] */
    int psteps; /* preferred velocities 0..psteps-1 */
    float *p;   /* [step][agent][pvx pvy] */
} trace;

static const char *dir;

/* Closes what read_csv opened: a pipe from gzip or a plain file. */
static void close_csv(FILE *f, bool piped) {
    if (piped)
        pclose(f);
    else
        fclose(f);
}

/* Reads a gzip'd CSV of `cols` numeric columns after a header line, or the
 * CSV itself when it lies there unpacked (Windows has no gzip to pipe). */
static float *read_csv(const char *name, int cols, int *rows) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%.*s", dir, (int)strlen(name) - 3, name); /* without .gz */
    FILE *f = fopen(path, "r");
    const bool piped = f == NULL;
    if (piped) {
        char cmd[4200];
        snprintf(cmd, sizeof cmd, "gzip -dc '%s/%s'", dir, name);
        f = popen(cmd, "r");
    }
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    float *v = malloc(cap * sizeof *v);
    char line[512];
    if (!fgets(line, sizeof line, f)) {
        close_csv(f, piped);
        free(v);
        return NULL;
    }
    while (fgets(line, sizeof line, f)) {
        char *p = line;
        for (int c = 0; c < cols; ++c) {
            if (n == cap)
                v = realloc(v, (cap *= 2) * sizeof *v);
            v[n++] = strtof(p, &p);
            if (*p == ',')
                ++p;
        }
    }
    close_csv(f, piped);
    *rows = (int)(n / (size_t)cols);
    return v;
}

static bool load(const char *stem, int steps_file_last, int pref_last, trace *t) {
    char name[256];
    int rows;
    snprintf(name, sizeof name, "rvo2_%s_steps0-%d.csv.gz", stem, steps_file_last);
    float *raw = read_csv(name, 6, &rows);
    if (!raw || rows == 0)
        return false;
    int max_agent = 0, max_step = 0;
    for (int r = 0; r < rows; ++r) {
        if ((int)raw[r * 6 + 1] > max_agent)
            max_agent = (int)raw[r * 6 + 1];
        if ((int)raw[r * 6] > max_step)
            max_step = (int)raw[r * 6];
    }
    t->agents = max_agent + 1;
    t->steps = max_step + 1;
    t->s = calloc((size_t)t->steps * t->agents * 4, sizeof *t->s);
    for (int r = 0; r < rows; ++r) {
        const int k = (int)raw[r * 6], a = (int)raw[r * 6 + 1];
        memcpy(&t->s[((size_t)k * t->agents + a) * 4], &raw[r * 6 + 2], 4 * sizeof(float));
    }
    free(raw);
    snprintf(name, sizeof name, "rvo2_%s_prefvel_steps0-%d.csv.gz", stem, pref_last);
    raw = read_csv(name, 4, &rows);
    if (!raw)
        return false;
    t->psteps = pref_last + 1;
    t->p = calloc((size_t)t->psteps * t->agents * 2, sizeof *t->p);
    for (int r = 0; r < rows; ++r) {
        const int k = (int)raw[r * 4], a = (int)raw[r * 4 + 1];
        memcpy(&t->p[((size_t)k * t->agents + a) * 2], &raw[r * 4 + 2], 2 * sizeof(float));
    }
    free(raw);
    return true;
}

static const float *state(const trace *t, int k, int a) { return &t->s[((size_t)k * t->agents + a) * 4]; }
static const float *pref(const trace *t, int k, int a) { return &t->p[((size_t)k * t->agents + a) * 2]; }

typedef struct scenario {
    const char *stem;
    int steps_last, pref_last;
    rvo_agent_def def;
    bool blocks;
} scenario;

static rvo_world *make_world(const scenario *sc, const trace *t, rvo_agent_id *ids) {
    rvo_world_def wd = rvo_world_def_default();
    wd.time_step = 0.25f;
    wd.agent = sc->def;
    rvo_world *w = rvo_world_create(&wd, NULL);
    rvo_world_set_rvo2_compat(w, true); /* move exactly as RVO2 does */
    for (int a = 0; a < t->agents; ++a)
        ids[a] = rvo_world_add_agent(w, state(t, 0, a)[0], state(t, 0, a)[1], NULL);
    if (sc->blocks) {
        static const float obst[4][8] = {
            {-10, 40, -40, 40, -40, 10, -10, 10},
            {10, 40, 10, 10, 40, 10, 40, 40},
            {10, -40, 40, -40, 40, -10, 10, -10},
            {-10, -40, -10, -10, -40, -10, -40, -40},
        };
        for (int k = 0; k < 4; ++k)
            CHECK(rvo_world_add_obstacle(w, obst[k], 4, true) != 0);
    }
    return w;
}

static scenario circle_scenario(void) {
    scenario sc = {"circle250_pref2", 400, 399, rvo_agent_def_default(), false};
    sc.def.neighbor_dist = 15;
    sc.def.max_neighbors = 10;
    sc.def.time_horizon = 10;
    sc.def.time_horizon_obst = 10;
    sc.def.radius = 1.5f;
    sc.def.max_speed = 2;
    return sc;
}

static scenario blocks_scenario(void) {
    scenario sc = {"blocks", 1000, 999, rvo_agent_def_default(), true};
    sc.def.neighbor_dist = 15;
    sc.def.max_neighbors = 10;
    sc.def.time_horizon = 5;
    sc.def.time_horizon_obst = 5;
    sc.def.radius = 2;
    sc.def.max_speed = 2;
    return sc;
}

static void replay(const scenario *sc) {
    trace t;
    if (!load(sc->stem, sc->steps_last, sc->pref_last, &t)) {
        CHECK(!"trace readable");
        return;
    }
    rvo_agent_id *ids = malloc(sizeof *ids * (size_t)t.agents);
    rvo_world *w = make_world(sc, &t, ids);
    long total = 0, close = 0, exact = 0;
    double worst = 0;
    int worst_step = -1;
    const int last = t.steps - 1 < t.psteps ? t.steps - 1 : t.psteps;
    for (int k = 0; k < last; ++k) {
        for (int a = 0; a < t.agents; ++a) {
            const float *s = state(&t, k, a), *p = pref(&t, k, a);
            rvo_agent_set_position(w, ids[a], s[0], s[1]);
            rvo_agent_set_velocity(w, ids[a], s[2], s[3]);
            rvo_agent_set_pref_velocity(w, ids[a], p[0], p[1]);
        }
        CHECK(rvo_world_solve(w, 0.25f) == RVO_OK);
        for (int a = 0; a < t.agents; ++a) {
            rvo_vec2 v;
            rvo_agent_new_velocity(w, ids[a], &v);
            const float *s1 = state(&t, k + 1, a);
            const double err = hypot((double)v.x - s1[2], (double)v.y - s1[3]);
            ++total;
            if (err <= 1e-3)
                ++close;
            if (v.x == s1[2] && v.y == s1[3])
                ++exact;
            if (err > worst) {
                worst = err;
                worst_step = k;
            }
        }
        CHECK(rvo_world_integrate(w, 0.25f) == RVO_OK);
    }
    const double pct = 100.0 * (double)close / (double)total;
    printf("replay %-16s steps 0..%d: %ld/%ld agent-steps within 1e-3 (%.3f%%), bit-identical %.3f%%, "
           "worst %.3g at step %d\n",
           sc->stem, last, close, total, pct, 100.0 * (double)exact / (double)total, worst, worst_step);
    CHECK(pct >= 99.5);
    rvo_world_destroy(w);
    free(ids);
    free(t.s);
    free(t.p);
}

static void freerun(const scenario *sc, int must_match) {
    trace t;
    if (!load(sc->stem, sc->steps_last, sc->pref_last, &t)) {
        CHECK(!"trace readable");
        return;
    }
    rvo_agent_id *ids = malloc(sizeof *ids * (size_t)t.agents);
    rvo_world *w = make_world(sc, &t, ids);
    int diverged = -1, first_inexact = -1;
    const int last = t.steps - 1 < t.psteps ? t.steps - 1 : t.psteps;
    for (int k = 0; k < last; ++k) {
        for (int a = 0; a < t.agents; ++a)
            rvo_agent_set_pref_velocity(w, ids[a], pref(&t, k, a)[0], pref(&t, k, a)[1]);
        rvo_world_step(w, 0.25f);
        double worst = 0;
        for (int a = 0; a < t.agents; ++a) {
            rvo_vec2 p;
            rvo_agent_position(w, ids[a], &p);
            const float *s1 = state(&t, k + 1, a);
            const double err = hypot((double)p.x - s1[0], (double)p.y - s1[1]);
            if (err > worst)
                worst = err;
            if ((p.x != s1[0] || p.y != s1[1]) && first_inexact < 0)
                first_inexact = k + 1;
        }
        if (worst > 1e-3 && diverged < 0)
            diverged = k + 1;
        if (k + 1 <= must_match)
            CHECK(worst <= 1e-3);
    }
    printf("freerun %-16s positions within 1e-3 of RVO2 up to step %d, bit-identical up to step %d (of %d)\n",
           sc->stem, diverged < 0 ? last : diverged - 1, first_inexact < 0 ? last : first_inexact - 1, last);
    rvo_world_destroy(w);
    free(ids);
    free(t.s);
    free(t.p);
}

static void home(void) {
    scenario sc = circle_scenario();
    trace t;
    if (!load(sc.stem, sc.steps_last, sc.pref_last, &t)) {
        CHECK(!"trace readable");
        return;
    }
    rvo_agent_id *ids = malloc(sizeof *ids * (size_t)t.agents);
    rvo_world *w = make_world(&sc, &t, ids);
    int steps = 0, pref_mismatch = 0;
    double worst_overlap = 0;
    for (; steps < 10000; ++steps) {
        bool all_home = true;
        for (int a = 0; a < t.agents; ++a) {
            rvo_vec2 p;
            rvo_agent_position(w, ids[a], &p);
            /* goal logic of the trace: g = goal - p; if |g| > 2, g = normalize(g) * 2 */
            float gx = -state(&t, 0, a)[0] - p.x, gy = -state(&t, 0, a)[1] - p.y;
            const float d2 = gx * gx + gy * gy;
            if (d2 > 1.5f * 1.5f)
                all_home = false;
            if (d2 > 4.0f) {
                const float inv = 1.0f / sqrtf(d2);
                gx = gx * inv * 2.0f;
                gy = gy * inv * 2.0f;
            }
            if (steps < t.psteps && (gx != pref(&t, steps, a)[0] || gy != pref(&t, steps, a)[1]))
                ++pref_mismatch;
            rvo_agent_set_pref_velocity(w, ids[a], gx, gy);
        }
        if (all_home)
            break;
        rvo_world_step(w, 0.25f);
        for (int a = 0; a < t.agents; ++a) {
            rvo_agent_id nb[16];
            rvo_vec2 p, q;
            rvo_agent_position(w, ids[a], &p);
            const int32_t n = rvo_world_query_radius(w, p.x, p.y, 3.0f, nb, 16);
            for (int32_t k = 0; k < n && k < 16; ++k) {
                if (nb[k] == ids[a])
                    continue;
                rvo_agent_position(w, nb[k], &q);
                const double ov = 3.0 - hypot((double)p.x - q.x, (double)p.y - q.y);
                if (ov > worst_overlap)
                    worst_overlap = ov;
            }
        }
    }
    printf("home circle250: every agent home after %d steps (RVO2: 1426); worst overlap %.3f (%.1f%% of "
           "ri+rj)\n",
           steps, worst_overlap, 100.0 * worst_overlap / 3.0);
    printf("goal logic reproduces RVO2's preferred velocities: %d mismatches over steps 0..%d\n",
           pref_mismatch, t.psteps - 1);
    CHECK(steps < 10000);
    rvo_world_destroy(w);
    free(ids);
    free(t.s);
    free(t.p);
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: conformance replay|freerun|home <scenario dir>\n");
        return 2;
    }
    dir = argv[2];
    char probe[4096];
    snprintf(probe, sizeof probe, "%s/rvo2_blocks.json", dir);
    FILE *f = fopen(probe, "r");
    if (!f) {
        printf("RVO2 traces not found in %s: skipped\n", dir);
        return 77;
    }
    fclose(f);
    const scenario circle = circle_scenario(), blocks = blocks_scenario();
    if (strcmp(argv[1], "replay") == 0) {
        replay(&circle);
        replay(&blocks);
    } else if (strcmp(argv[1], "freerun") == 0) {
        freerun(&circle, 0);
        freerun(&blocks, 50);
    } else if (strcmp(argv[1], "home") == 0) {
        home();
    } else {
        fprintf(stderr, "unknown mode %s\n", argv[1]);
        return 2;
    }
    return check_finish(argv[1]);
}
