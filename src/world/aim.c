/* Where an agent's preferred velocity aims. Scripts steer a unit at a
 * point (its slot, a rally point, a path corner) or walk it one way; the
 * core is told only the velocity. As the agent moves sideways, a velocity
 * aimed at a point turns towards it, and the turn gives the point's
 * distance: D = -(sideways move) / sin(turn). A unit that walks one way does
 * not turn (D infinite). While an agent is held back, each integrate adds
 * its last move, sideways to a direction taken earlier, and once that
 * reaches RVO_AIM_MIN_SHIFT radii measures D from the turn since then and
 * takes the direction again. The streak counts the measures in a row that
 * put the point near; 32 bits an agent hold it all (aim_pack). The
 * give-way rules read it (solve/give_way.c): a group sent to slots too few
 * for it, pressing on for good, rests, while a jam of agents bound for far
 * goals still pushes through. */
#include "world/world.h"

#include <math.h>

/* A direction as 13 bits: the quarter turn it lies in (2 bits) and, within
 * it, y / (x + y) of the direction turned into the first quarter (11 bits):
 * no trigonometry, steps of at most 1e-3 rad. */
#define AIM_QUARTER 2048u

static uint32_t aim_encode(rvo_vec2 v) {
    float x = v.x, y = v.y;
    uint32_t q = 0;
    if (y < 0.0f) { /* half a turn */
        x = -x, y = -y;
        q = 2;
    }
    if (x <= 0.0f) { /* a quarter turn back: (x, y) -> (y, -x) */
        const float t = x;
        x = y, y = -t;
        q += 1;
    }
    const float s = x + y; /* > 0 unless v is zero */
    const float f = s > 0.0f ? y / s : 0.0f;
    /* (f rounding to 1 is the next quarter's 0: the same direction) */
    return (q * AIM_QUARTER + (uint32_t)(f * (float)AIM_QUARTER + 0.5f)) & (4u * AIM_QUARTER - 1u);
}

static rvo_vec2 aim_decode(uint32_t code) {
    /* the quarter turn as a rotation (no branch: agents walk every way) */
    static const float cos_q[4] = {1.0f, 0.0f, -1.0f, 0.0f}, sin_q[4] = {0.0f, 1.0f, 0.0f, -1.0f};
    const uint32_t q = (code / AIM_QUARTER) & 3u;
    const float f = (float)(code % AIM_QUARTER) * (1.0f / (float)AIM_QUARTER);
    const float x = 1.0f - f, y = f; /* length 0.71-1: the measure needs none */
    return v2(cos_q[q] * x - sin_q[q] * y, sin_q[q] * x + cos_q[q] * y);
}

/* 32 bits: dir 13, shift 11 (two's complement), streak 3, dist 5. */
static uint32_t aim_pack(aim_state a) {
    return (a.dir & 0x1fffu) | ((uint32_t)a.shift & 0x7ffu) << 13 | (a.streak & 7u) << 24 |
           (a.dist & 31u) << 27;
}

/* aim_pack's shift field, and that field holding RVO_AIM_NO_DIR */
#define AIM_SHIFT_BITS (0x7ffu << 13)
#define AIM_NO_DIR_BITS (((uint32_t)RVO_AIM_NO_DIR & 0x7ffu) << 13)

static aim_state aim_unpack(uint32_t bits) {
    aim_state a;
    a.dir = bits & 0x1fffu;
    const uint32_t s = bits >> 13 & 0x7ffu;
    a.shift = s & 0x400u ? (int32_t)s - 0x800 : (int32_t)s;
    a.streak = bits >> 24 & 7u;
    a.dist = bits >> 27;
    a.fresh = false;
    return a;
}

uint32_t rvo__aim_new(void) {
    const aim_state a = {0, RVO_AIM_NO_DIR, 0, RVO_AIM_UNKNOWN, false};
    return aim_pack(a);
}

/* Is agent i, not idle, held back: its velocity along p1, its preferred
 * velocity, below RVO_AIM_HELD of it? */
static inline bool held_back(const rvo_world *w, int32_t i, rvo_vec2 p1) {
    return v2_dot(w->vel[i], p1) < RVO_AIM_HELD * v2_abs_sq(p1);
}

aim_state rvo__aim_next(const rvo_world *w, int32_t i) {
    aim_state a = aim_unpack(w->aim[i]);
    const rvo_vec2 p1 = w->pref[i];
    if (rvo__idle(p1, &w->prm[i])) { /* where it wants to be */
        a.streak = RVO_AIM_NEAR_STEPS;
        a.dist = 0;
        a.shift = RVO_AIM_NO_DIR;
        return a;
    }
    if (!held_back(w, i, p1)) { /* on its way: no measure */
        a.shift = RVO_AIM_NO_DIR;
        return a;
    }
    if (a.shift == RVO_AIM_NO_DIR) { /* held back now: measure from here on */
        a.fresh = true;
        return a;
    }
    const double r = w->prm[i].radius;
    const rvo_vec2 p0 = aim_decode(a.dir);
    /* sideways to p0 (times |p0|): the move so far and the last step's */
    const double unit = r / RVO_AIM_SHIFT_UNITS;
    const double shift =
        a.shift * unit + ((double)p0.x * w->vel[i].y - (double)p0.y * w->vel[i].x) * w->aim_dt;
    const double p0_sq = (double)p0.x * p0.x + (double)p0.y * p0.y;
    if (!(shift * shift >= RVO_AIM_MIN_SHIFT * RVO_AIM_MIN_SHIFT * r * r * p0_sq)) {
        const double u = shift / unit; /* (|shift| < 0.1 r: fits its 11 bits, never RVO_AIM_NO_DIR) */
        a.shift = (int32_t)(u >= 0.0 ? u + 0.5 : u - 0.5);
        return a;
    }
    /* the ray from where dir was taken along p0 and the ray along p1 meet
     * D = -shift |p1| / (p0 x p1) ahead (|p0| cancels) */
    const double turn = (double)p0.x * p1.y - (double)p0.y * p1.x;
    const double d = -shift * sqrt((double)p1.x * p1.x + (double)p1.y * p1.y) / turn;
    const double reach = RVO_AIM_NEAR_RADII * r;
    if (turn != 0.0 && d > 0.0 && d <= reach) {
        a.streak = a.streak < RVO_AIM_STREAK_MAX ? a.streak + 1 : RVO_AIM_STREAK_MAX;
        a.dist = (uint32_t)(d / reach * RVO_AIM_DIST_STEPS + 0.5);
    } else {
        a.streak = 0;
        a.dist = RVO_AIM_UNKNOWN;
    }
    a.fresh = true;
    return a;
}

void rvo__aim_commit(rvo_world *w, int32_t begin, int32_t end) {
    for (int32_t i = begin; i < end; ++i) {
        /* on its way and not held back before: rvo__aim_next leaves the
         * bits as they are (most agents, most steps) */
        const rvo_vec2 p1 = w->pref[i];
        if ((w->aim[i] & AIM_SHIFT_BITS) == AIM_NO_DIR_BITS && !rvo__idle(p1, &w->prm[i]) &&
            !held_back(w, i, p1))
            continue;
        aim_state a = rvo__aim_next(w, i);
        if (a.fresh) { /* (not idle: its preferred velocity is not zero) */
            a.dir = aim_encode(w->pref[i]);
            a.shift = 0;
        }
        w->aim[i] = aim_pack(a);
    }
}
