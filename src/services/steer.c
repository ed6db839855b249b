/* rvo_world_steer: rvo.jitter's steering toward goals, for many agents in
 * one call (a script's per-agent calls cost more than the solve on Lua
 * 5.4). Every operation is the Lua module's (lua/rvo/jitter.lua), in the
 * same order and in doubles, and the generator is its L'Ecuyer combined
 * generator in exact integer arithmetic, so the bits are those of
 * Jitter:steer on both runtimes. */
#include "world/world.h"

#include <math.h>

#define STEER_M1 2147483563
#define STEER_A1 40014
#define STEER_M2 2147483399
#define STEER_A2 40692

static bool state_ok(double v, int64_t m) { return v >= 1.0 && v < (double)m && v == floor(v); }

/* Rng:next(): a number in (0, 1), a multiple of 1/M1. */
static double draw(int64_t *s1, int64_t *s2) {
    *s1 = (*s1 * STEER_A1) % STEER_M1;
    *s2 = (*s2 * STEER_A2) % STEER_M2;
    int64_t z = (*s1 - *s2) % (STEER_M1 - 1); /* Lua's % floors: 0..M1-2 */
    if (z < 0)
        z += STEER_M1 - 1;
    return (double)(z + 1) / (double)STEER_M1;
}

int32_t rvo_world_steer(rvo_world *w, const rvo_agent_id *ids, const double *goals, int32_t n, double amount,
                        double slow_radius, double arrive, double *rng, double *left) {
    if (!w)
        return RVO_ERR_INVALID_ARGUMENT;
    if (n < 0)
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 3, "n must be >= 0");
    if (n > 0 && !ids)
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 1, "ids is NULL");
    if (n > 0 && !goals)
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 2, "goals is NULL");
    if (!(amount >= 0.0 && amount <= 1.0))
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 4, "amount must be in 0..1");
    if (!(slow_radius >= 0.0 && slow_radius <= 3.4e38))
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 5, "slow_radius must be a finite number >= 0");
    if (!(arrive >= 0.0 && arrive <= 3.4e38))
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 6, "arrive must be a finite number >= 0");
    if (rng && !(state_ok(rng[0], STEER_M1) && state_ok(rng[1], STEER_M2)))
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 7,
                         "rng must hold two generator states (1..%ld, 1..%ld)", (long)(STEER_M1 - 1),
                         (long)(STEER_M2 - 1));
    for (int32_t k = 0; k < n; ++k) {
        if (rvo__slot_lookup(&w->agent_slots, ids[k]) < 0)
            return rvo__fail(w, RVO_ERR_UNKNOWN_ID, 1, "unknown or removed agent id (number %ld in ids)",
                             (long)k + 1);
        if (!isfinite(goals[2 * k]) || !isfinite(goals[2 * k + 1]))
            return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 2, "goal number %ld is not finite", (long)k + 1);
    }
    int64_t s1 = rng ? (int64_t)rng[0] : 1, s2 = rng ? (int64_t)rng[1] : 1;
    const double ts = (double)w->time_step;
    int32_t moving = 0;
    for (int32_t k = 0; k < n; ++k) {
        const int32_t i = rvo__slot_lookup(&w->agent_slots, ids[k]);
        const double x = (double)w->pos[i].x, y = (double)w->pos[i].y;
        const double speed = (double)w->prm[i].max_speed;
        const double dx = goals[2 * k] - x, dy = goals[2 * k + 1] - y;
        const double d = sqrt(dx * dx + dy * dy);
        if (left)
            left[k] = d;
        if (d == 0.0 || speed == 0.0 || d < arrive) {
            w->pref[i] = v2(0.0f, 0.0f);
            continue;
        }
        ++moving;
        double s = speed;
        if (d < slow_radius)
            s = speed * d / slow_radius;
        const double last = d / ts; /* the speed that lands on the goal this step */
        const double ux = dx / d, uy = dy / d;
        if (last <= s) {
            w->pref[i] = v2((float)(ux * last), (float)(uy * last));
            continue;
        }
        const double e = rng ? amount * (s / speed) * (2.0 * draw(&s1, &s2) - 1.0) : 0.0;
        const double vx = ux - uy * e, vy = uy + ux * e;
        const double kk = s / sqrt(vx * vx + vy * vy);
        w->pref[i] = v2((float)(vx * kk), (float)(vy * kk));
    }
    if (rng) {
        rng[0] = (double)s1;
        rng[1] = (double)s2;
    }
    rvo__ok(w);
    return moving;
}
