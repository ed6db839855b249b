/* Two-way door lanes: where a path goes through a door, a follower steers
 * for the right half of it. Local avoidance alone deadlocks two
 * crowds pressing into one door from both sides: the first rows fill the
 * opening across its whole width and nobody can pass. Pedestrians (and lane
 * based game crowds) keep to their right, so the two flows pass each other;
 * this is that rule as a path-follower helper, without a world:
 *   - lanes: between `depth` before and after the wall an agent stays in
 *     the right half of the opening (its centre from a quarter of the
 *     width to a radius off the jamb), widening by `widen` outside the
 *     wall; the path through those cross sections is string-pulled
 *     (funnel), so it walks straight where it can and rounds the jambs;
 *   - joining: an agent still left of the door's centre line before the
 *     wall (the other flow's side) falls in behind the last agent of its
 *     own flow on the right side instead of cutting across it.
 * While only one flow uses the door, or when it is narrower than four
 * radii, there is one lane: the whole opening. */
#include "base/alloc.h"
#include "base/math.h"

#include <stdarg.h>
#include <stdio.h>

rvo_door rvo_door_make(float ax, float ay, float bx, float by, float thickness) {
    rvo_door d;
    d.a = v2(ax, ay);
    d.b = v2(bx, by);
    d.thickness = thickness;
    d.depth = 2.0f;
    d.widen = 1.0f;
    d.reach = 8.0f;
    return d;
}

/* Where agent i stands relative to the door, for the direction its target
 * lies in. */
typedef struct door_frame {
    rvo_vec2 c, u, n, t; /* centre, along the opening, travel direction, its right */
    float h, half_t;     /* half-width, half the wall's thickness */
} door_frame;

typedef struct agent_place {
    bool uses;  /* the door concerns it */
    float dir;  /* +1: target on the side of the opening's right-hand normal */
    float s;    /* distance along its travel direction (< 0 before the wall's centre) */
    float lat;  /* distance to the right of the centre line */
    float s_to; /* its target's distance along the travel direction */
} agent_place;

static agent_place place_of(const rvo_door *d, const door_frame *f, rvo_vec2 p, rvo_vec2 g) {
    agent_place a = {false, 1.0f, 0.0f, 0.0f, 0.0f};
    const rvo_vec2 N = v2(f->u.y, -f->u.x);
    const float st = v2_dot(v2_sub(g, f->c), N), sp = v2_dot(v2_sub(p, f->c), N);
    if (!(fabsf(st) > f->half_t))
        return a; /* target inside the doorway: nothing to steer */
    a.dir = st > 0.0f ? 1.0f : -1.0f;
    a.s = a.dir * sp;
    a.s_to = a.dir * st;
    /* the walker's right, t = (n.y, -n.x) with n = dir * N, is -dir * u */
    a.lat = v2_dot(v2_sub(p, f->c), v2_scale(-a.dir, f->u));
    if (!(a.s < f->half_t + d->depth && a.s >= -(f->half_t + d->reach)))
        return a;
    if (a.s < -f->half_t) {
        /* before the wall: its way to the target crosses the wall's centre
         * line within depth of the opening (not at another door) */
        const float k = -sp / (st - sp); /* 0 < k < 1: p and g lie on either side */
        const float w = v2_dot(v2_sub(v2_add(p, v2_scale(k, v2_sub(g, p))), f->c), f->u);
        a.uses = fabsf(w) <= f->h + d->depth;
    } else { /* in or past the wall: in the lanes' cross section */
        a.uses = fabsf(v2_dot(v2_sub(p, f->c), f->u)) <= f->h + d->widen;
    }
    return a;
}

static float tri2(rvo_vec2 a, rvo_vec2 b, rvo_vec2 c) { return v2_det(v2_sub(b, a), v2_sub(c, a)); }

/* First corner of the shortest path from p through the portals (left and
 * right ends as the walker sees them, in walking order) to g. */
static rvo_vec2 funnel(rvo_vec2 p, const rvo_vec2 *left, const rvo_vec2 *right, int np, rvo_vec2 g) {
    rvo_vec2 l = g, r = g;
    bool have = false;
    for (int k = 0; k <= np; ++k) {
        const rvo_vec2 nl = k < np ? left[k] : g, nr = k < np ? right[k] : g;
        if (!have) {
            l = nl;
            r = nr;
            have = true;
            continue;
        }
        if (tri2(p, r, nr) >= 0.0f) { /* nr does not lie right of p->r: the right side narrows */
            if (tri2(p, l, nr) < 0.0f)
                r = nr;
            else
                return l; /* it crossed the left side: that is the corner */
        }
        if (tri2(p, l, nl) <= 0.0f) { /* the left side narrows */
            if (tri2(p, r, nl) > 0.0f)
                l = nl;
            else
                return r;
        }
    }
    return g;
}

static bool check(const rvo_door *d, int32_t n, const float *pos, const float *radius, const float *target,
                  const float *out, rvo_error *err) {
    if (!d) {
        rvo__error_set(err, RVO_ERR_INVALID_ARGUMENT, 1, "door must not be NULL");
        return false;
    }
    const float f[8] = {d->a.x, d->a.y, d->b.x, d->b.y, d->thickness, d->depth, d->widen, d->reach};
    for (int k = 0; k < 8; ++k)
        if (!isfinite(f[k]) || fabsf(f[k]) > 1e9f) {
            rvo__error_set(err, RVO_ERR_INVALID_ARGUMENT, 1, "door field %d must be finite (|v| <= 1e9)",
                           k + 1);
            return false;
        }
    if (!(v2_abs_sq(v2_sub(d->b, d->a)) > 1e-12f)) {
        rvo__error_set(err, RVO_ERR_INVALID_ARGUMENT, 1, "door ends a and b must differ");
        return false;
    }
    if (!(d->thickness >= 0.0f) || !(d->depth > 0.0f) || !(d->widen >= 0.0f) || !(d->reach > 0.0f)) {
        rvo__error_set(err, RVO_ERR_INVALID_ARGUMENT, 1,
                       "door needs thickness >= 0, depth > 0, widen >= 0, reach > 0");
        return false;
    }
    if (n < 0) {
        rvo__error_set(err, RVO_ERR_INVALID_ARGUMENT, 2, "agent count must be >= 0");
        return false;
    }
    if (n == 0)
        return true;
    const float *arrays[4] = {pos, radius, target, out};
    for (int k = 0; k < 4; ++k)
        if (!arrays[k]) {
            rvo__error_set(err, RVO_ERR_INVALID_ARGUMENT, k + 3, "array must not be NULL");
            return false;
        }
    for (int32_t i = 0; i < n; ++i) {
        if (!isfinite(pos[2 * i]) || !isfinite(pos[2 * i + 1]) || fabsf(pos[2 * i]) > 1e9f ||
            fabsf(pos[2 * i + 1]) > 1e9f) {
            rvo__error_set(err, RVO_ERR_INVALID_ARGUMENT, 3, "position %d must be finite (|c| <= 1e9)",
                           (int)i + 1);
            return false;
        }
        if (!isfinite(radius[i]) || !(radius[i] > 0.0f)) {
            rvo__error_set(err, RVO_ERR_INVALID_ARGUMENT, 4, "radius %d must be finite and > 0", (int)i + 1);
            return false;
        }
        if (!isfinite(target[2 * i]) || !isfinite(target[2 * i + 1]) || fabsf(target[2 * i]) > 1e9f ||
            fabsf(target[2 * i + 1]) > 1e9f) {
            rvo__error_set(err, RVO_ERR_INVALID_ARGUMENT, 5, "target %d must be finite (|c| <= 1e9)",
                           (int)i + 1);
            return false;
        }
    }
    return true;
}

int32_t rvo_door_steer(const rvo_door *d, int32_t n, const float *pos, const float *radius,
                       const float *target, float *out, rvo_error *err) {
    rvo__error_ok(err);
    if (!check(d, n, pos, radius, target, out, err))
        return RVO_ERR_INVALID_ARGUMENT;
    door_frame f;
    const rvo_vec2 ab = v2_sub(d->b, d->a);
    f.c = v2_scale(0.5f, v2_add(d->a, d->b));
    f.h = 0.5f * v2_abs(ab);
    f.u = v2_scale(1.0f / (2.0f * f.h), ab);
    f.half_t = 0.5f * d->thickness;

    /* Which flows use the door, and the last agent of each on its own side
     * before the wall. */
    float tail[2] = {INFINITY, INFINITY};
    bool flow[2] = {false, false};
    for (int32_t i = 0; i < n; ++i) {
        const agent_place a =
            place_of(d, &f, v2(pos[2 * i], pos[2 * i + 1]), v2(target[2 * i], target[2 * i + 1]));
        const int k = a.dir > 0.0f;
        if (a.uses)
            flow[k] = true;
        if (a.uses && a.s < -f.half_t && a.lat >= 0.0f && a.s < tail[k])
            tail[k] = a.s;
    }
    /* lanes only while both flows use it: one flow alone has the whole door */
    const bool both = flow[0] && flow[1];

    int32_t steered = 0;
    for (int32_t i = 0; i < n; ++i) {
        const rvo_vec2 p = v2(pos[2 * i], pos[2 * i + 1]), g = v2(target[2 * i], target[2 * i + 1]);
        const agent_place a = place_of(d, &f, p, g);
        rvo_vec2 to = g;
        if (a.uses) {
            const rvo_vec2 nn = v2_scale(a.dir, v2(f.u.y, -f.u.x)), t = v2(nn.y, -nn.x);
            const float r = radius[i];
            const float hi = f.h - r > 0.0f ? f.h - r : 0.0f;
            const bool two = both && 0.5f * f.h <= hi; /* room for a lane each way */
            const float lo = two ? 0.5f * f.h : -hi;
            if (two && a.lat < 0.0f && a.s < -f.half_t) {
                /* on the other flow's side: fall in behind the own flow */
                const float ts = tail[a.dir > 0.0f] < INFINITY ? tail[a.dir > 0.0f] - (2.0f * r + 0.2f) : a.s;
                to = v2_add(f.c, v2_add(v2_scale(ts, nn), v2_scale(hi, t)));
            } else {
                const float s_k[4] = {-(f.half_t + d->depth), -f.half_t, f.half_t, f.half_t + d->depth};
                const float w_k[4] = {d->widen, 0.0f, 0.0f, d->widen};
                rvo_vec2 left[4], right[4];
                int np = 0;
                for (int k = 0; k < 4; ++k) {
                    if (!(s_k[k] > a.s + 1e-3f))
                        continue; /* behind it */
                    if (!(s_k[k] < a.s_to))
                        break; /* beyond its target */
                    const rvo_vec2 mid = v2_add(f.c, v2_scale(s_k[k], nn));
                    left[np] = v2_add(mid, v2_scale(lo, t));
                    right[np] = v2_add(mid, v2_scale(hi + w_k[k], t));
                    ++np;
                }
                to = funnel(p, left, right, np, g);
            }
        }
        out[2 * i] = to.x;
        out[2 * i + 1] = to.y;
        if (to.x != g.x || to.y != g.y)
            ++steered;
    }
    return steered;
}
