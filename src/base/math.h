/* Small float vector math, written to round exactly as RVO2 (the library
 * builds with -ffp-contract=off: no fused multiply-add). Static inline:
 * these run in every hot loop. */
#ifndef RVO_BASE_MATH_H
#define RVO_BASE_MATH_H

#include "rvo.h"

#include <math.h>

#define RVO_MAX_COORD 1e9f /* largest accepted |coordinate| or |velocity| */

static inline rvo_vec2 v2(float x, float y) {
    rvo_vec2 r = {x, y};
    return r;
}
static inline rvo_vec2 v2_add(rvo_vec2 a, rvo_vec2 b) { return v2(a.x + b.x, a.y + b.y); }
static inline rvo_vec2 v2_sub(rvo_vec2 a, rvo_vec2 b) { return v2(a.x - b.x, a.y - b.y); }
static inline rvo_vec2 v2_neg(rvo_vec2 a) { return v2(-a.x, -a.y); }
static inline rvo_vec2 v2_scale(float s, rvo_vec2 a) { return v2(s * a.x, s * a.y); }
static inline rvo_vec2 v2_mul(rvo_vec2 a, float s) { return v2(a.x * s, a.y * s); }
/* RVO2 divides by multiplying with the reciprocal. */
static inline rvo_vec2 v2_div(rvo_vec2 a, float s) {
    const float inv = 1.0f / s;
    return v2(a.x * inv, a.y * inv);
}
static inline float v2_dot(rvo_vec2 a, rvo_vec2 b) { return a.x * b.x + a.y * b.y; }
static inline float v2_det(rvo_vec2 a, rvo_vec2 b) { return a.x * b.y - a.y * b.x; }
static inline float v2_abs_sq(rvo_vec2 a) { return v2_dot(a, a); }
static inline float v2_abs(rvo_vec2 a) { return sqrtf(v2_abs_sq(a)); }
static inline rvo_vec2 v2_normalize(rvo_vec2 a) { return v2_div(a, v2_abs(a)); }
static inline float sqrf(float a) { return a * a; }
static inline bool rvo_isfinitef(float a) { return isfinite(a); }
static inline bool v2_finite(rvo_vec2 a) { return isfinite(a.x) && isfinite(a.y); }

/* The point of segment a..a + ab nearest to p (a zero segment: NaN). */
static inline rvo_vec2 v2_nearest_on_segment(rvo_vec2 p, rvo_vec2 a, rvo_vec2 ab) {
    float t = v2_dot(v2_sub(p, a), ab) / v2_abs_sq(ab);
    t = t < 0.0f ? 0.0f : t > 1.0f ? 1.0f : t;
    return v2_add(a, v2_scale(t, ab));
}

/* Do the vertical extents [z, z + h] overlap, within margin? */
static inline bool z_overlap(float z1, float h1, float z2, float h2, float margin) {
    return !(z1 > z2 + h2 + margin || z2 > z1 + h1 + margin);
}

/* Degenerate input: a dt or time horizon below 1e-6 s counts as 1e-6 s
 * where its inverse is taken, so that the inverse stays finite. */
#define RVO_MIN_TIME 1e-6f
static inline float rvo__min_time(float t) { return t < RVO_MIN_TIME ? RVO_MIN_TIME : t; }
/* Keeps a coordinate within [-RVO_MAX_COORD, RVO_MAX_COORD] (inf included);
 * values inside are returned unchanged, bit for bit. */
static inline float rvo__clamp_coord(float v) {
    return v > RVO_MAX_COORD ? RVO_MAX_COORD : v < -RVO_MAX_COORD ? -RVO_MAX_COORD : v;
}
/* Within [-RVO_MAX_COORD, RVO_MAX_COORD] (false for NaN and inf). */
static inline bool rvo__coord_ok(float v) { return fabsf(v) <= RVO_MAX_COORD; }

#endif
