/* Unreal-style avoidance (UAvoidanceManager::GetAvoidanceVelocity_Internal,
 * seeds/000), plus the solver selection API.
 *
 * For every neighbour B this agent avoids, a velocity cone: the velocities v
 * for which the discs (combined radius R) would touch within the horizon
 * if B kept its velocity. As in UE the cone's apex is B's "weighted"
 * velocity, here v_A + share * (v_B - v_A) with orca.c's responsibility
 * share (B's velocity when B is locked or does not avoid A, the midpoint of
 * the two velocities for equal weights, which is RVO's reciprocal cone), so
 * each agent takes its share of the turn. Differences from UE, all so that
 * the per-agent parameters mean what they mean for ORCA:
 *   - the cone is bounded by the true tangents of the disc and cut off at
 *     time_horizon (UE's is unbounded, its sides slightly narrower);
 *   - neighbours are RVO2's (neighbor_dist, max_neighbors, groups, height);
 *   - obstacle edges facing the agent block a velocity whose swept disc
 *     touches them within time_horizon_obst (in the frame of a moving
 *     obstacle: relative velocity, as for a locked agent), and they are
 *     checked for the preferred velocity too (UE only tests nav edges once
 *     it must turn); a moving obstacle that would run into the agent
 *     standing still counts as a neighbour that would (see below).
 *   - neighbours behind are kept (UE drops those with v_pref . p_B <= 0,
 *     and then turns into them sideways);
 *   - a second, plain cone per neighbour (apex v_B, cut off at dt) keeps the
 *     chosen velocity from touching B within the step should B not take its
 *     share (B may have stopped);
 *   - boxed in, an agent that would be run into standing still backs away
 *     (see below) instead of stopping.
 * As in UE, neighbours at the same spot are ignored (the separation after
 * integrate splits them), an agent with a zero preferred velocity stands
 * still, and a weight-0 agent (share 0) ignores the others entirely.
 *
 * If the preferred velocity (clamped to max_speed) is outside every cone it
 * is kept. Otherwise 8 headings turned -23, +23, -40, +40, -55, +55, -85, +85
 * degrees from it, at the preferred speed, are each shortened as UE's
 * AvoidCones does (pulled back towards zero until outside every cone and
 * edge) and scored by UE's (c . v_pref) * |c|^2: forward progress weighted by
 * speed. The best strictly positive score wins, the earlier heading on a
 * tie (so two agents meeting head-on both turn right). If none is positive
 * the agent stops, as UE does, unless standing still lies in some
 * neighbour's plain cone (cut off at time_horizon): then it takes whichever
 * of 12 headings (every 30 degrees, backwards first, at max_speed), each
 * shortened as above, leaves it fastest; zero if none moves.
 */
#include "index/grid.h"
#include "solve/give_way.h"
#include "solve/orca.h"
#include "solve/solvers.h"

#include <string.h>

/* ---- solver selection ---------------------------------------------------- */

rvo_status rvo_world_set_solver(rvo_world *w, rvo_solver s) {
    if (!w)
        return RVO_ERR_INVALID_ARGUMENT;
    const int v = (int)s;
    if (v != RVO_SOLVER_ORCA && v != RVO_SOLVER_UE && v != RVO_SOLVER_RVO)
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 1, "solver must be orca, ue or rvo");
    w->solver = v;
    rvo__ok(w);
    return RVO_OK;
}

rvo_solver rvo_world_solver(const rvo_world *w) { return w ? (rvo_solver)w->solver : RVO_SOLVER_ORCA; }

static const char *const solver_names[] = {"orca", "ue", "rvo"};

const char *rvo_solver_name(rvo_solver s) {
    const int v = (int)s;
    return v >= 0 && v < 3 ? solver_names[v] : NULL;
}

int rvo_solver_from_name(const char *name) {
    if (!name)
        return -1;
    for (int k = 0; k < 3; ++k)
        if (strcmp(name, solver_names[k]) == 0)
            return k;
    return -1;
}

/* ---- cones ------------------------------------------------------------------- */

/* Per-neighbour data, packed in the worker's line buffers:
 *   agent k: lines[k] = {p: B's relative position, apex},
 *            proj[k]  = {left leg, right leg} (unit; both zero when the
 *            discs overlap); s->agents[k] = {index: B, dist_sq: d^2 - R d
 *            (0 when overlapping), mark: 1 if the contact cone is needed}.
 *   edge k:  lines[na + k] = {a, b relative to the agent},
 *            proj[na + k]  = {unit direction, (length, 0)} */

typedef struct span {
    float lo, hi;
} span;

/* Narrows sp to the s with n . (s c - apex) >= k. */
static inline void clip_half(span *sp, rvo_vec2 n, float k, rvo_vec2 c, rvo_vec2 apex) {
    const float a = v2_dot(n, c), b = k + v2_dot(n, apex);
    if (a > 0.0f) {
        const float t = b / a;
        if (t > sp->lo)
            sp->lo = t;
    } else if (a < 0.0f) {
        const float t = b / a;
        if (t < sp->hi)
            sp->hi = t;
    } else if (b > 0.0f) {
        sp->lo = INFINITY; /* never */
        sp->hi = -INFINITY;
    }
}

/* The s for which s * c lies in agent k's cone (an interval, since the cut
 * cone is convex): the cone beyond the chord through the tangent points of
 * the cut-off disc, joined with that disc. Empty when lo >= hi. Only
 * s in [0, smax] matter: a cone that range cannot reach comes back empty. */
static span cone_span(const orca_line *L, const orca_line *P, float R, float near, float inv_tau, rvo_vec2 c,
                      float smax) {
    const rvo_vec2 p = L->point, apex = L->direction, left = P->point, right = P->direction;
    const span none = {INFINITY, -INFINITY};
    span sp = {-INFINITY, INFINITY};
    /* The cone lies where p . (v - apex) > near / tau, near = d^2 - R d > 0,
     * or > 0 when overlapping; p . (s c - apex) is largest at s = 0 or smax. */
    const float pa = v2_dot(p, apex), pc = v2_dot(p, c) * smax;
    const float reach = (pc > 0.0f ? pc : 0.0f) - pa;
    if (left.x == 0.0f && left.y == 0.0f) { /* overlapping: every approach is blocked */
        if (!(reach > 0.0f))
            return none;
        clip_half(&sp, p, 0.0f, c, apex);
        return sp;
    }
    if (!(reach > near * inv_tau))
        return none;
    const float d_sq = v2_abs_sq(p);
    clip_half(&sp, v2(-right.y, right.x), 0.0f, c, apex);
    clip_half(&sp, v2(left.y, -left.x), 0.0f, c, apex);
    clip_half(&sp, p, (d_sq - R * R) * inv_tau, c, apex);
    /* |s c - q| < R / tau with q the cut-off disc's centre in v-space */
    const rvo_vec2 q = v2_add(apex, v2_scale(inv_tau, p));
    const float rr = R * inv_tau;
    const float cc = v2_abs_sq(c), cq = v2_dot(c, q), qq = v2_abs_sq(q) - rr * rr;
    span dsp = {INFINITY, -INFINITY};
    if (cc > 0.0f) {
        const float disc = cq * cq - cc * qq;
        if (disc > 0.0f) {
            const float root = sqrtf(disc);
            dsp.lo = (cq - root) / cc;
            dsp.hi = (cq + root) / cc;
        }
    } else if (qq < 0.0f) {
        dsp.lo = -INFINITY;
        dsp.hi = INFINITY;
    }
    if (!(sp.lo < sp.hi))
        return dsp;
    if (!(dsp.lo < dsp.hi))
        return sp;
    if (dsp.lo < sp.lo)
        sp.lo = dsp.lo;
    if (dsp.hi > sp.hi)
        sp.hi = dsp.hi;
    return sp;
}

/* Clips sp to the s with A s + B >= 0. */
static inline void clip_linear(span *sp, float A, float B) {
    if (A > 0.0f) {
        const float t = -B / A;
        if (t > sp->lo)
            sp->lo = t;
    } else if (A < 0.0f) {
        const float t = -B / A;
        if (t < sp->hi)
            sp->hi = t;
    } else if (B < 0.0f) {
        sp->lo = INFINITY;
        sp->hi = -INFINITY;
    }
}

/* The s for which the agent's disc (radius r, at the origin) moving with
 * s c touches the edge a->b (unit direction e, length len) of an obstacle
 * moving with vo within tau (1 / inv_tau): a velocity obstacle of the edge
 * widened by r, with apex vo. That set is convex (an interval): the union
 * of the flat side's part and the two end caps' (agent-like cones). */
static span moving_edge_span(rvo_vec2 a, rvo_vec2 b, rvo_vec2 e, float len, float r, rvo_vec2 c, rvo_vec2 vo,
                             float inv_tau) {
    const span none = {INFINITY, -INFINITY};
    float depth;
    rvo_vec2 nrm;
    rvo__edge_toi(a, b, e, len, r, v2(0.0f, 0.0f), &depth, &nrm);
    if (depth > 0.0f) { /* overlapping: blocked while approaching, (s c - vo) . nrm < 0 */
        span sp = {-INFINITY, INFINITY};
        clip_linear(&sp, -v2_dot(c, nrm), v2_dot(vo, nrm));
        return sp.lo < sp.hi ? sp : none;
    }
    span all = none;
    /* The flat side: the signed distance h of the edge's line, contact at
     * t = D / k(s) with D = |h| - r, k(s) = sgn(h) n . (s c - vo) the
     * closing speed, t <= tau, the contact point within the edge. */
    const rvo_vec2 n = v2(e.y, -e.x);
    const float h = v2_dot(n, a), D = fabsf(h) - r;
    if (D > 0.0f) {
        const float sg = h > 0.0f ? 1.0f : -1.0f;
        const float al = sg * v2_dot(n, c), be = -sg * v2_dot(n, vo);
        const float ec = v2_dot(e, c), ev = v2_dot(e, vo), ea = v2_dot(e, a);
        span sp = {-INFINITY, INFINITY};
        clip_linear(&sp, al, be - D * inv_tau);                               /* k(s) >= D / tau */
        clip_linear(&sp, D * ec - ea * al, -D * ev - ea * be);                /* along >= 0 */
        clip_linear(&sp, (len + ea) * al - D * ec, (len + ea) * be + D * ev); /* along <= len */
        if (sp.lo < sp.hi)
            all = sp;
    }
    /* The end caps: a disc of radius r at a and at b. */
    for (int k = 0; k < 2; ++k) {
        const rvo_vec2 p = k ? b : a;
        const float d_sq = v2_abs_sq(p);
        if (!(d_sq > r * r))
            continue; /* (the overlap case above) */
        const float d = sqrtf(d_sq), leg = sqrtf(d_sq - r * r);
        const orca_line L = {p, vo};
        const orca_line P = {v2_div(v2(p.x * leg - p.y * r, p.x * r + p.y * leg), d_sq),
                             v2_div(v2(p.x * leg + p.y * r, -p.x * r + p.y * leg), d_sq)};
        const span sp = cone_span(&L, &P, r, d_sq - r * d, inv_tau, c, 1.0f);
        if (!(sp.lo < sp.hi))
            continue;
        if (sp.lo < all.lo)
            all.lo = sp.lo;
        if (sp.hi > all.hi)
            all.hi = sp.hi;
    }
    return all;
}

typedef struct ue_ctx {
    const rvo_world *w;
    scratch *s;
    int32_t na, nobst;
    float radius, inv_tau, inv_dt, tau_o;
} ue_ctx;

/* Largest s in [0, 1] with s * c outside every cone and edge sweep: UE's
 * AvoidCones, which pulls the point back to where it enters each cone that
 * still contains it until none does. The blocked ranges of s are found
 * once, then the pulling back runs over them. */
static float free_scale(const ue_ctx *x, rvo_vec2 c) {
    const orca_line *L = x->s->lines, *P = x->s->proj;
    rvo_vec2 *spans = x->s->spans; /* (lo, hi) */
    int32_t n = 0;
    for (int32_t k = 0; k < x->na; ++k) {
        const neighbor *nb = &x->s->agents[k];
        const float R = x->radius + x->w->prm[nb->index].radius;
        span sp = cone_span(&L[k], &P[k], R, nb->dist_sq, x->inv_tau, c, 1.0f);
        if (sp.lo < 1.0f && sp.hi > 0.0f && sp.lo < sp.hi)
            spans[n++] = v2(sp.lo, sp.hi);
        /* Contact: whatever B's share, no touching within this step should
         * B keep its velocity (B may have stopped, as agents here do when
         * boxed in, instead of taking its share). */
        if (!nb->mark)
            continue; /* cannot happen, or the cone above covers it */
        const orca_line plain = {L[k].point, x->w->vel[nb->index]};
        sp = cone_span(&plain, &P[k], R, nb->dist_sq, x->inv_dt, c, 1.0f);
        if (sp.lo < 1.0f && sp.hi > 0.0f && sp.lo < sp.hi)
            spans[n++] = v2(sp.lo, sp.hi);
    }
    for (int32_t k = 0; k < x->nobst; ++k) {
        const int32_t j = x->na + k;
        if (x->w->obst_moving > 0) {
            const rvo_vec2 vo = rvo__edge_velocity(x->w, x->s->obst[k].index);
            if (vo.x != 0.0f || vo.y != 0.0f) {
                const span sp = moving_edge_span(L[j].point, L[j].direction, P[j].point, P[j].direction.x,
                                                 x->radius, c, vo, 1.0f / x->tau_o);
                if (sp.lo < 1.0f && sp.hi > 0.0f && sp.lo < sp.hi)
                    spans[n++] = v2(sp.lo, sp.hi);
                continue;
            }
        }
        float depth;
        rvo_vec2 nrm;
        const float t = rvo__edge_toi(L[j].point, L[j].direction, P[j].point, P[j].direction.x, x->radius, c,
                                      &depth, &nrm);
        const float lo = t / x->tau_o; /* s * c touches it at t / s */
        if (lo < 1.0f)
            spans[n++] = v2(lo, INFINITY);
    }
    float s = 1.0f;
    bool changed = n > 0;
    while (changed && s > 0.0f) {
        changed = false;
        for (int32_t k = 0; k < n; ++k) {
            if (spans[k].x < s && s < spans[k].y) {
                s = spans[k].x;
                changed = true;
            }
        }
    }
    return s > 0.0f ? s : 0.0f;
}

/* The speed of the fastest neighbour that, keeping its velocity, would hit
 * this agent standing still within the horizon; 0 when none would. */
static float zero_threat(const ue_ctx *x) {
    const orca_line *L = x->s->lines, *P = x->s->proj;
    float fastest = 0.0f;
    for (int32_t k = 0; k < x->na; ++k) {
        const neighbor *nb = &x->s->agents[k];
        const orca_line plain = {L[k].point, x->w->vel[nb->index]};
        const span sp = cone_span(&plain, &P[k], x->radius + x->w->prm[nb->index].radius, nb->dist_sq,
                                  x->inv_tau, v2(0.0f, 0.0f), 1.0f);
        const float speed = v2_abs(plain.direction);
        if (sp.lo < sp.hi && speed > fastest)
            fastest = speed;
    }
    /* moving obstacles that would run into it */
    for (int32_t k = 0; k < x->nobst && x->w->obst_moving > 0; ++k) {
        const int32_t j = x->na + k;
        const rvo_vec2 vo = rvo__edge_velocity(x->w, x->s->obst[k].index);
        if (vo.x == 0.0f && vo.y == 0.0f)
            continue;
        const span sp = moving_edge_span(L[j].point, L[j].direction, P[j].point, P[j].direction.x, x->radius,
                                         v2(1.0f, 0.0f), vo, 1.0f / x->tau_o);
        const float speed = v2_abs(vo);
        if (sp.lo <= 0.0f && 0.0f < sp.hi && speed > fastest)
            fastest = speed;
    }
    return fastest;
}

/* cos and sin of 180, -150, 150, -120, 120, ..., -30, 30, 0 degrees */
static const float escape_cos[12] = {-1.0f, -0.86602540f, -0.86602540f, -0.5f,       -0.5f,       0.0f,
                                     0.0f,  0.5f,         0.5f,         0.86602540f, 0.86602540f, 1.0f};
static const float escape_sin[12] = {0.0f, -0.5f,        0.5f,        -0.86602540f, 0.86602540f, -1.0f,
                                     1.0f, -0.86602540f, 0.86602540f, -0.5f,        0.5f,        0.0f};

/* cos and sin of 23, 40, 55 and 85 degrees */
static const float turn_cos[4] = {0.92050485f, 0.76604444f, 0.57357644f, 0.08715574f};
static const float turn_sin[4] = {0.39073113f, 0.64278761f, 0.81915204f, 0.99619470f};

rvo_vec2 rvo__ue_new_velocity(const rvo_world *w, int32_t i, float dt, scratch *s) {
    const agent_params *me = &w->prm[i];
    const rvo_vec2 pos = w->pos[i], va = w->vel[i];
    const float vmax = me->max_speed;
    rvo_vec2 pv = w->pref[i];
    const float pref_sq = v2_abs_sq(pv);
    if (pref_sq > vmax * vmax)
        pv = v2_scale(vmax / sqrtf(pref_sq), pv);
    if (!(v2_abs_sq(pv) > 0.0f))
        return v2(0.0f, 0.0f);
    const float tau = me->time_horizon > dt ? me->time_horizon : dt;
    const float tau_o = me->time_horizon_obst > dt ? me->time_horizon_obst : dt;
    orca_line *L = s->lines, *P = s->proj;

    /* Cones of the neighbours, compacted to the front of s->agents. */
    const int32_t nn = rvo__agent_neighbors(w, i, s->agents);
    int32_t na = 0;
    for (int32_t k = 0; k < nn; ++k) {
        const int32_t bi = s->agents[k].index;
        const agent_params *other = &w->prm[bi];
        const float share = rvo__share(me, other);
        if (!(share > 0.0f))
            continue; /* weight 0: leaves it all to B */
        const rvo_vec2 p = v2_sub(w->pos[bi], pos);
        const float d_sq = v2_abs_sq(p);
        if (!(d_sq > 0.0f))
            continue; /* at the same spot: no direction to avoid */
        const float R = me->radius + other->radius;
        rvo_vec2 left = v2(0.0f, 0.0f), right = v2(0.0f, 0.0f);
        float near = 0.0f;
        if (d_sq > R * R) {
            const float d = sqrtf(d_sq), leg = sqrtf(d_sq - R * R);
            left = v2_div(v2(p.x * leg - p.y * R, p.x * R + p.y * leg), d_sq);
            right = v2_div(v2(p.x * leg + p.y * R, -p.x * R + p.y * leg), d_sq);
            near = d_sq - R * d;
        }
        const rvo_vec2 apex = v2_add(va, v2_scale(share, v2_sub(w->vel[bi], va)));
        /* The contact cone (free_scale) is needed unless the cone, cut off
         * later (tau >= dt) at the same apex, holds it, or B cannot be
         * reached within the step at all. */
        const bool same = apex.x == w->vel[bi].x && apex.y == w->vel[bi].y;
        const bool reach = sqrtf(d_sq) - R < dt * (vmax + v2_abs(w->vel[bi]));
        s->agents[na].index = bi;
        s->agents[na].dist_sq = near;
        s->agents[na].mark = !same && reach;
        L[na].point = p;
        L[na].direction = apex;
        P[na].point = left;
        P[na].direction = right;
        ++na;
    }
    /* Obstacle edges facing the agent. */
    const int32_t nobst = rvo__pack_obstacle_edges(w, i, s, L + na, P + na);
    const ue_ctx x = {w,    s, na, nobst, me->radius, 1.0f / rvo__min_time(tau), 1.0f / rvo__min_time(dt),
                      tau_o};

    /* The trivial case: the preferred velocity is free. */
    if (free_scale(&x, pv) >= 1.0f)
        return pv;

    /* 8 headings, UE's order: right then left of each angle. */
    float best_score = 0.0f;
    rvo_vec2 best = v2(0.0f, 0.0f);
    const float speed_sq = v2_abs_sq(pv);
    for (int32_t k = 0; k < 8; ++k) {
        const float cs = turn_cos[k >> 1], sn = (k & 1) ? turn_sin[k >> 1] : -turn_sin[k >> 1];
        const rvo_vec2 c = v2(pv.x * cs - pv.y * sn, pv.x * sn + pv.y * cs);
        /* The score if nothing shortens it; skip if that cannot win. */
        if (!(v2_dot(c, pv) * speed_sq > best_score))
            continue;
        const rvo_vec2 cv = v2_scale(free_scale(&x, c), c);
        const float score = v2_dot(cv, pv) * v2_abs_sq(cv);
        if (score > best_score) {
            best_score = score;
            best = cv;
        }
    }
    const float threat = best_score <= 0.0f ? zero_threat(&x) : 0.0f;
    if (threat > 0.0f) {
        /* Boxed in, and standing still would be run into: get out of the
         * way along the heading (every 30 degrees, backwards first) that
         * stays free the longest, as fast as the one coming (at most
         * max_speed): a full-speed escape from a slow neighbour overshoots,
         * and a crowd settling at its goals would bounce for good. */
        const rvo_vec2 unit = v2_scale((threat < vmax ? threat : vmax) / sqrtf(speed_sq), pv);
        float best_sq = 0.0f;
        for (int32_t k = 0; k < 12; ++k) {
            const float cs = escape_cos[k], sn = escape_sin[k];
            const rvo_vec2 c = v2(unit.x * cs - unit.y * sn, unit.x * sn + unit.y * cs);
            const rvo_vec2 cv = v2_scale(free_scale(&x, c), c);
            if (v2_abs_sq(cv) > best_sq) {
                best_sq = v2_abs_sq(cv);
                best = cv;
            }
        }
    }
    if (!v2_finite(best))
        best = v2(0.0f, 0.0f);
    return best;
}
