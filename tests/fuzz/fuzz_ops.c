/* libFuzzer harness: the input bytes are a program of C API calls with
 * adversarial values (NaN, inf, huge and tiny numbers, stale and made-up
 * ids, removal during churn, degenerate polygons, calls in the wrong
 * phase, snapshot round trips). After every call it checks the invariants:
 *   - a call that fails changes nothing (the world's snapshot is the same
 *     bytes before and after) and leaves an error message;
 *   - every position, velocity and new velocity is finite;
 *   - ids: every id issued and not removed is valid, every removed one is
 *     not, and the counts agree with the shadow lists;
 *   - a snapshot loads back into a world that saves the same bytes.
 * Build: scripts/fuzz (clang -fsanitize=fuzzer,address,undefined). Without
 * libFuzzer, tests/fuzz/replay.c runs the corpus through it. */
#include "rvo.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_AGENTS 48
#define MAX_OBST 12
#define MAX_OPS 400
#define MAX_IDS 256

typedef struct reader {
    const uint8_t *p;
    size_t n, at;
} reader;

static uint8_t u8(reader *r) { return r->at < r->n ? r->p[r->at++] : 0; }
static bool done(const reader *r) { return r->at >= r->n; }
static uint32_t u32(reader *r) {
    uint32_t v = 0;
    for (int k = 0; k < 4; ++k)
        v |= (uint32_t)u8(r) << (8 * k);
    return v;
}

/* A number: a nasty constant, raw bits, or a small ordinary value. */
static float num(reader *r) {
    static const float nasty[] = {0.0f,      -0.0f, 1.0f,  -1.0f, 0.5f,   NAN,    INFINITY,
                                  -INFINITY, 1e9f,  -1e9f, 1e30f, 1e-30f, 1e-45f, 3.4e38f,
                                  2e9f,      1e-7f, 1e6f,  -1e6f, 1e-3f,  4096.0f};
    const uint8_t sel = u8(r);
    if (sel < 48)
        return nasty[sel % (sizeof nasty / sizeof nasty[0])];
    if (sel < 64) {
        const uint32_t bits = u32(r);
        float f;
        memcpy(&f, &bits, 4);
        return f;
    }
    return (float)(int8_t)u8(r) * 0.25f + (float)(sel - 64) * (1.0f / 192.0f);
}

static double dnum(reader *r) {
    const uint8_t sel = u8(r);
    if (sel < 8)
        return (double[]){NAN, INFINITY, -1, 0, 1e300, 4294967296.0, 2.5, 1024}[sel];
    return (double)num(r);
}

/* Every id ever issued (live or removed), to pick stale ones. */
typedef struct shadow {
    uint64_t agents[MAX_IDS];
    bool agent_live[MAX_IDS];
    int nagents;
    uint64_t obst[MAX_IDS];
    bool obst_live[MAX_IDS];
    int nobst;
} shadow;

static uint64_t pick(reader *r, const uint64_t *ids, int n) {
    const uint8_t sel = u8(r);
    if (sel < 200 && n > 0)
        return ids[sel % n];
    switch (sel % 6) {
    case 0:
        return 0;
    case 1:
        return (uint64_t)u32(r);
    case 2:
        return ((uint64_t)u32(r) << 32) | u32(r);
    case 3:
        return 1;
    case 4:
        return (1ull << 24) | 1; /* slot 1, generation 1 */
    default:
        return 0xFFFFFFull;
    }
}

static void track(uint64_t *ids, bool *live, int *n, uint64_t id) {
    for (int k = 0; k < *n; ++k)
        if (ids[k] == id)
            abort(); /* an id issued twice: ids confused */
    if (*n < MAX_IDS) {
        ids[*n] = id;
        live[*n] = true;
        ++*n;
    }
}

static void untrack(uint64_t *ids, bool *live, int n, uint64_t id) {
    for (int k = 0; k < n; ++k)
        if (ids[k] == id)
            live[k] = false;
}

static unsigned long long total_ops, total_inputs;
static void report(void) {
    fprintf(stderr, "fuzz_ops: %llu operations in %llu inputs\n", total_ops, total_inputs);
}

/* The world's bytes, in a buffer reused across calls. */
static uint8_t *snap_buf;
static size_t snap_cap;
static size_t snap(const rvo_world *w, uint8_t **out) {
    const size_t n = rvo_world_save(w, NULL, 0);
    if (n > snap_cap) {
        snap_buf = realloc(snap_buf, n);
        snap_cap = n;
    }
    rvo_world_save(w, snap_buf, n);
    *out = snap_buf;
    return n;
}

static void dump(const rvo_world *w) {
    static rvo_agent_id ids[MAX_AGENTS + 8];
    const int32_t n = rvo_world_agent_count(w);
    rvo_world_agent_ids(w, ids, n);
    for (int32_t i = 0; i < n; ++i) {
        rvo_vec2 p, v, pv;
        rvo_agent_position(w, ids[i], &p);
        rvo_agent_velocity(w, ids[i], &v);
        rvo_agent_pref_velocity(w, ids[i], &pv);
        fprintf(stderr, "  agent %llu at (%a, %a) v (%a, %a) pref (%a, %a)", (unsigned long long)ids[i], p.x,
                p.y, v.x, v.y, pv.x, pv.y);
        for (int k = 0; k < RVO_PARAM_COUNT; ++k) {
            double x;
            rvo_agent_param(w, ids[i], (rvo_param)k, &x);
            fprintf(stderr, " %s=%g", rvo_param_name((rvo_param)k), x);
        }
        fprintf(stderr, " locked=%d\n", rvo_agent_is_locked(w, ids[i]));
    }
}

static void check_finite(const rvo_world *w) {
    static float xy[2 * (MAX_AGENTS + 8)];
    static const char *const what[] = {"position", "velocity", "new velocity"};
    const int32_t n = rvo_world_agent_count(w);
    if (n > MAX_AGENTS + 8)
        abort();
    for (int a = 0; a < 3; ++a) {
        if (a == 0)
            rvo_world_positions(w, xy, n);
        else if (a == 1)
            rvo_world_velocities(w, xy, n);
        else
            rvo_world_new_velocities(w, xy, n);
        for (int32_t k = 0; k < 2 * n; ++k)
            if (!isfinite(xy[k])) {
                fprintf(stderr, "agent %d: %s is not finite\n", (int)k / 2, what[a]);
                dump(w);
                abort();
            }
    }
}

static void check_ids(const rvo_world *w, const shadow *sh) {
    int live = 0;
    for (int k = 0; k < sh->nagents; ++k) {
        if (rvo_agent_is_valid(w, sh->agents[k]) != sh->agent_live[k])
            abort();
        live += sh->agent_live[k];
    }
    if (sh->nagents < MAX_IDS && live != rvo_world_agent_count(w))
        abort();
    live = 0;
    for (int k = 0; k < sh->nobst; ++k) {
        if (rvo_obstacle_is_valid(w, sh->obst[k]) != sh->obst_live[k])
            abort();
        live += sh->obst_live[k];
    }
    if (sh->nobst < MAX_IDS && live != rvo_world_obstacle_count(w))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static bool registered;
    if (!registered) {
        atexit(report);
        registered = true;
    }
    ++total_inputs;
    static int trace = -1; /* FUZZ_TRACE=1 prints the calls */
    if (trace < 0)
        trace = getenv("FUZZ_TRACE") ? atoi(getenv("FUZZ_TRACE")) : 0;
    reader r = {data, size, 0};
    rvo_world_def wd = rvo_world_def_default();
    wd.threads = 1 + u8(&r) % 2;
    wd.time_step = num(&r);
    if (!(wd.time_step > 0) || !isfinite(wd.time_step))
        wd.time_step = 0.1f;
    wd.seed = u32(&r);
    rvo_world *w = rvo_world_create(&wd, NULL);
    if (!w)
        abort();
    shadow sh;
    memset(&sh, 0, sizeof sh);
    static uint8_t before[1 << 16];

    for (int op = 0; op < MAX_OPS && !done(&r); ++op) {
        ++total_ops;
        size_t nb = 0;
        uint8_t *cur;
        const size_t n0 = snap(w, &cur);
        if (n0 <= sizeof before) {
            memcpy(before, cur, n0);
            nb = n0;
        }
        const int32_t agents = rvo_world_agent_count(w);
        int st = RVO_OK; /* status of the call; < 0 means it must have changed nothing */
        const uint8_t code = u8(&r);
        if (trace) {
            fprintf(stderr, "op %d: %u (agents %d)\n", op, code % 24, (int)agents);
            if (trace > 1)
                dump(w);
        }
        float buf[2 * (MAX_AGENTS + 8)];
        uint64_t idbuf[MAX_AGENTS + 8];
        switch (code % 24) {
        case 0:
        case 1: { /* add an agent, with or without a def */
            if (agents >= MAX_AGENTS)
                break;
            const float x = num(&r), y = num(&r);
            rvo_agent_id id;
            if (u8(&r) & 1) {
                id = rvo_world_add_agent(w, x, y, NULL);
            } else {
                rvo_agent_def d = rvo_agent_def_default();
                const uint8_t which = u8(&r);
                if (which & 1)
                    d.radius = num(&r);
                if (which & 2)
                    d.max_speed = num(&r);
                if (which & 4)
                    d.neighbor_dist = num(&r);
                if (which & 8)
                    d.max_neighbors = (int32_t)u32(&r) % 1100 - 20;
                if (which & 16)
                    d.time_horizon = num(&r);
                if (which & 32)
                    d.velocity = (rvo_vec2){num(&r), num(&r)};
                if (which & 64)
                    d.pref_velocity = (rvo_vec2){num(&r), num(&r)};
                if (which & 128) {
                    d.weight = num(&r);
                    d.groups = u32(&r);
                    d.mask = u32(&r);
                    d.z = num(&r);
                    d.height = num(&r);
                    d.time_horizon_obst = num(&r);
                }
                if (u8(&r) == 0)
                    d.cookie = 0;
                id = rvo_world_add_agent(w, x, y, &d);
            }
            if (id)
                track(sh.agents, sh.agent_live, &sh.nagents, id);
            else
                st = -1;
            break;
        }
        case 2: { /* remove an agent (live, stale or made up) */
            const uint64_t id = pick(&r, sh.agents, sh.nagents);
            st = rvo_world_remove_agent(w, id);
            if (st == RVO_OK)
                untrack(sh.agents, sh.agent_live, sh.nagents, id);
            break;
        }
        case 3: {
            const uint64_t id = pick(&r, sh.agents, sh.nagents);
            const float a = num(&r), b = num(&r);
            const uint8_t k = u8(&r) % 3;
            st = k == 0   ? rvo_agent_set_position(w, id, a, b)
                 : k == 1 ? rvo_agent_set_velocity(w, id, a, b)
                          : rvo_agent_set_pref_velocity(w, id, a, b);
            break;
        }
        case 4: {
            const uint64_t id = pick(&r, sh.agents, sh.nagents);
            const int p = (int)(u8(&r) % (RVO_PARAM_COUNT + 2)) - 1;
            st = rvo_agent_set_param(w, id, (rvo_param)p, dnum(&r));
            double out;
            const rvo_status g = rvo_agent_param(w, id, (rvo_param)p, &out);
            if (g == RVO_OK && isnan(out))
                abort();
            break;
        }
        case 5:
        case 6: { /* obstacles: random, tiny, collinear, repeated, self-intersecting */
            if (rvo_world_obstacle_count(w) >= MAX_OBST)
                break;
            const int32_t n = u8(&r) % 9;
            float pts[18];
            const uint8_t shape = u8(&r);
            for (int32_t k = 0; k < 2 * n; ++k) {
                if (shape % 4 == 0)
                    pts[k] = num(&r);
                else if (shape % 4 == 1)
                    pts[k] = k % 2 ? 0.0f : (float)(k / 2); /* collinear */
                else if (shape % 4 == 2)
                    pts[k] = (float)(u8(&r) % 4) * 1e-6f; /* microscopic */
                else
                    pts[k] = (float)(int8_t)u8(&r) * 0.5f;
            }
            const bool closed = u8(&r) & 1;
            if (trace) {
                fprintf(stderr, "  obstacle (%s):", closed ? "closed" : "open");
                for (int32_t k = 0; k < 2 * n; ++k)
                    fprintf(stderr, " %a", pts[k]);
                fputc('\n', stderr);
            }
            const rvo_obstacle_id id = rvo_world_add_obstacle(w, n > 0 ? pts : NULL, n, closed);
            if (id)
                track(sh.obst, sh.obst_live, &sh.nobst, id);
            else
                st = -1;
            break;
        }
        case 7: {
            const uint64_t id = pick(&r, sh.obst, sh.nobst);
            st = rvo_world_remove_obstacle(w, id);
            if (st == RVO_OK)
                untrack(sh.obst, sh.obst_live, sh.nobst, id);
            break;
        }
        case 8: {
            const float a = num(&r), b = num(&r);
            st = rvo_obstacle_set_z_range(w, pick(&r, sh.obst, sh.nobst), a, b);
            break;
        }
        case 9:
        case 10: {
            st = rvo_world_solve(w, num(&r));
            if (st == RVO_OK)
                check_finite(w);
            break;
        }
        case 11:
            st = rvo_world_integrate(w, num(&r));
            if (st == RVO_OK)
                check_finite(w);
            break;
        case 12:
        case 13: {
            const uint8_t k = u8(&r);
            st = rvo_world_step(w, k & 1 ? 0.0f : num(&r));
            if (st == RVO_OK)
                check_finite(w);
            break;
        }
        case 14: {
            const uint64_t id = pick(&r, sh.agents, sh.nagents);
            const float a = num(&r), b = num(&r);
            st = rvo_agent_set_new_velocity(w, id, a, b);
            rvo_vec2 v;
            if (rvo_agent_new_velocity(w, id, &v) == RVO_OK && !(isfinite(v.x) && isfinite(v.y)))
                abort();
            break;
        }
        case 15: {
            const uint64_t id = pick(&r, sh.agents, sh.nagents);
            const uint8_t sel = u8(&r);
            if (((sel >> 1) & 7) == 7) { /* lock timers and bulk steering (1 in 8) */
                const int k = sel >> 4;
                int32_t n = 0;
                if (k % 6 == 0) {
                    n = rvo_world_advance_locks(w, num(&r));
                } else if (k % 6 == 1) {
                    const float t = num(&r), a = num(&r), c = num(&r), rel = num(&r);
                    n = rvo_world_lock_solved(w, t, a, c, rel, u32(&r));
                } else if (k % 6 == 2) {
                    n = rvo_world_release_pushed(w);
                } else if (k % 6 == 3) {
                    double t = -1;
                    n = rvo_agent_lock_time(w, id, &t);
                    if (n == RVO_OK && !(t >= 0 && isfinite(t)))
                        abort();
                } else if (k % 6 == 4) {
                    n = rvo_agent_set_auto_lock(w, id, k & 1);
                    const int on = rvo_agent_auto_lock(w, id);
                    if (on != 0 && on != 1 && on != RVO_ERR_UNKNOWN_ID)
                        abort();
                } else { /* steer a few agents (ids live, stale or made up) toward goals */
                    rvo_agent_id sid[4];
                    double goals[8], rng[2] = {12345, 67890}, left[4];
                    const int32_t m = (int32_t)(u8(&r) % 5);
                    for (int32_t q = 0; q < m; ++q) {
                        sid[q] = pick(&r, sh.agents, sh.nagents);
                        goals[2 * q] = num(&r), goals[2 * q + 1] = num(&r);
                    }
                    n = rvo_world_steer(w, sid, goals, m, num(&r), num(&r), num(&r), (k & 1) ? rng : NULL,
                                        left);
                }
                st = n < 0 ? n : RVO_OK;
                break;
            }
            if (sel & 1) {
                const float a = num(&r), b = num(&r);
                st = rvo_agent_lock(w, id, a, b);
            } else {
                st = rvo_agent_unlock(w, id);
            }
            const int l = rvo_agent_is_locked(w, id);
            if (l != 0 && l != 1 && l != RVO_ERR_UNKNOWN_ID)
                abort();
            break;
        }
        case 16: { /* queries: they change nothing, whatever they return */
            const uint8_t sel = u8(&r), k = sel % 5;
            const float a = num(&r), b = num(&r), c = num(&r), d = num(&r), e = num(&r);
            int32_t n = 0;
            if (k == 0)
                n = rvo_world_query_neighbors(w, pick(&r, sh.agents, sh.nagents), idbuf, MAX_AGENTS + 8);
            else if (k == 1)
                n = rvo_world_query_radius(w, a, b, c, idbuf, MAX_AGENTS + 8);
            else if (k == 2)
                n = rvo_world_line_of_sight(w, a, b, c, d, e);
            else if (k == 3) {
                rvo_ray_hit hit;
                if (sel & 128) /* point-blank, skipping a live, stale or null id */
                    n = rvo_world_ray_cast_from(w, a, b, c, d, e, num(&r), u32(&r),
                                                (sel & 64) ? 0 : pick(&r, sh.agents, sh.nagents), &hit);
                else
                    n = rvo_world_ray_cast(w, a, b, c, d, e, num(&r), u32(&r), &hit);
                if (n == 1 && !(isfinite(hit.distance) && isfinite(hit.point.x) && isfinite(hit.normal.y)))
                    abort();
            } else {
                int32_t nobst = 0;
                float lines[4 * 64];
                n = rvo_agent_orca_lines(w, pick(&r, sh.agents, sh.nagents), a, lines, 64, &nobst);
                for (int32_t q = 0; q < 4 * (n < 64 ? n : 64); ++q)
                    if (!isfinite(lines[q])) {
                        fprintf(stderr,
                                "orca_lines(dt %a): line %d of %d (%d obstacle lines) is not finite: %a %a "
                                "%a %a\n",
                                a, q / 4, n, nobst, lines[q / 4 * 4], lines[q / 4 * 4 + 1],
                                lines[q / 4 * 4 + 2], lines[q / 4 * 4 + 3]);
                        dump(w);
                        abort();
                    }
            }
            if (n > 0 && k <= 1)
                for (int32_t q = 0; q < (n < MAX_AGENTS + 8 ? n : MAX_AGENTS + 8); ++q)
                    if (!rvo_agent_is_valid(w, idbuf[q]))
                        abort();
            st = RVO_OK; /* must not change the world, failing or not */
            break;
        }
        case 17: { /* bulk setters with a wrong count or one bad value */
            int32_t n = agents;
            const uint8_t k = u8(&r);
            if (k & 1)
                n += (int32_t)(u8(&r) % 3) - 1;
            if (n < 0 || n > MAX_AGENTS + 8)
                break;
            for (int32_t q = 0; q < 2 * n; ++q)
                buf[q] = (k & 2) ? num(&r) : (float)(q % 5) * 0.5f - 1.0f;
            st = k & 4 ? rvo_world_set_new_velocities(w, buf, n) : rvo_world_set_pref_velocities(w, buf, n);
            break;
        }
        case 18: {
            const uint8_t k = u8(&r) % 7;
            if (k == 5)
                st = rvo_world_set_strict_overlap(w, u8(&r) & 1);
            else if (k == 6) {
                const float a = num(&r), b = num(&r);
                st = rvo_world_set_stall_threshold(w, a, b);
            } else if (k == 0)
                st = rvo_world_set_solver(w, (rvo_solver)((int)(u8(&r) % 5) - 1));
            else if (k == 1)
                st = rvo_world_set_sampling(w, (int32_t)(u32(&r) % 5000) - 10, num(&r));
            else if (k == 2)
                st = rvo_world_set_height_margin(w, num(&r));
            else if (k == 3)
                st = rvo_world_set_time_step(w, num(&r));
            else
                st = rvo_world_set_rvo2_compat(w, u8(&r) & 1);
            break;
        }
        case 19: {
            int32_t n;
            if (u8(&r) & 1) {
                float times[MAX_AGENTS + 8];
                const int32_t cap = (int32_t)(u8(&r) % (MAX_AGENTS + 8));
                n = rvo_world_stalled(w, idbuf, times, cap);
                for (int32_t q = 0; q < (n < cap ? n : cap); ++q) /* only what was written */
                    if (!(times[q] >= 0) || !isfinite(times[q]))
                        abort();
            } else {
                n = rvo_world_avoiding(w, num(&r), idbuf, (int32_t)(u8(&r) % (MAX_AGENTS + 8)));
            }
            if (n > agents)
                abort();
            st = RVO_OK;
            break;
        }
        case 20: { /* snapshot round trip: the loaded world replaces the original */
            uint8_t *s;
            const size_t n = snap(w, &s);
            uint8_t *copy = malloc(n);
            memcpy(copy, s, n);
            rvo_world *l = NULL;
            rvo_error err;
            if (rvo_world_load(copy, n, NULL, &l, &err) != RVO_OK) {
                fprintf(stderr, "a saved world does not load: %s\n", err.message);
                abort();
            }
            uint8_t *s2;
            const size_t n2 = snap(l, &s2);
            if (n2 != n || memcmp(copy, s2, n) != 0)
                abort();
            free(copy);
            rvo_world_destroy(w);
            w = l;
            break;
        }
        case 21: { /* null buffers with non-zero sizes */
            const uint8_t k = u8(&r) % 3;
            if (k == 0)
                st = agents > 0 ? rvo_world_set_pref_velocities(w, NULL, agents) : RVO_OK;
            else if (k == 1)
                st = rvo_world_add_obstacle(w, NULL, 3, true) ? RVO_OK : -1;
            else
                st = rvo_world_query_radius(w, 0, 0, 1e9f, NULL, 5) < 0 ? -1 : RVO_OK;
            break;
        }
        case 22: { /* churn: remove the first agent and add one at its place */
            if (agents == 0)
                break;
            rvo_world_agent_ids(w, idbuf, 1);
            rvo_vec2 p;
            rvo_agent_position(w, idbuf[0], &p);
            if (rvo_world_remove_agent(w, idbuf[0]) != RVO_OK)
                abort();
            untrack(sh.agents, sh.agent_live, sh.nagents, idbuf[0]);
            const rvo_agent_id id = rvo_world_add_agent(w, p.x, p.y, NULL);
            if (!id)
                abort();
            track(sh.agents, sh.agent_live, &sh.nagents, id);
            break;
        }
        default: { /* stale id into every getter */
            const uint64_t id = pick(&r, sh.agents, sh.nagents);
            rvo_vec2 v;
            const bool valid = rvo_agent_is_valid(w, id);
            if ((rvo_agent_position(w, id, &v) == RVO_OK) != valid)
                abort();
            if ((rvo_agent_velocity(w, id, &v) == RVO_OK) != valid)
                abort();
            if (valid && !(isfinite(v.x) && isfinite(v.y)))
                abort();
            st = RVO_OK;
            break;
        }
        }
        if (st < 0) {
            /* a failed call changes nothing and says why */
            if (rvo_world_last_error(w)[0] == 0) {
                fprintf(stderr, "op %u failed (%d) without a message\n", code % 24, st);
                abort();
            }
            uint8_t *after;
            const size_t na = snap(w, &after);
            if (nb > 0 && (na != nb || memcmp(before, after, na) != 0)) {
                fprintf(stderr, "op %u failed (%d: %s) but changed the world\n", code % 24, st,
                        rvo_world_last_error(w));
                abort();
            }
        } else if (code % 24 == 16 || code % 24 == 19 || code % 24 >= 23) {
            uint8_t *after;
            const size_t na = snap(w, &after);
            if (nb > 0 && (na != nb || memcmp(before, after, na) != 0))
                abort(); /* queries change nothing */
        }
        if (rvo_world_agent_count(w) != agents && (code % 24 > 2 && code % 24 != 20 && code % 24 != 22))
            abort();
        check_ids(w, &sh);
        check_finite(w);
    }
    rvo_world_destroy(w);
    return 0;
}
