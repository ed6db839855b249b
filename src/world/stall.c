/* Stall events: per agent, how long it has made too little progress along
 * its preferred velocity. Updated at the end of every integrate from the
 * velocity it really moved with (in the default mode that includes the
 * overlap resolution's correction), so an agent held in place by a crowd
 * stalls even though the solver keeps asking it to move. Scripts poll the
 * stalled agents in bulk and escalate (lua/rvo/unstick.lua). With strict
 * overlap (the default), stalled agents that want opposite ways, or each
 * where the other stands, take turns and a long-stalled one gets way
 * (rvo__gives_way, solve/give_way.h): the threshold also decides when. */
#include "world/world.h"

/* How far agent i has been carried back along its preferred velocity
 * (w->carried): grows by what the move took it backwards, shrinks as it
 * walks its way again, 0 when idle or locked. Only agents moving against
 * their preferred velocity or carried already call it. */
static RVO_NOINLINE void update_carried(rvo_world *w, int32_t i, float dt) {
    const rvo_vec2 pref = w->pref[i];
    float c = 0.0f;
    if (!w->prm[i].locked && !rvo__idle(pref, &w->prm[i])) {
        c = w->carried[i] - v2_dot(w->vel[i], pref) / sqrtf(v2_abs_sq(pref)) * dt;
        /* finite and >= 0 (a snapshot's check): extreme speeds, steps or
         * tiny preferred velocities overflowed it (found by fuzz_ops) */
        c = c > 0.0f ? (c < RVO_MAX_COORD ? c : RVO_MAX_COORD) : 0.0f;
    }
    w->carried[i] = c;
}

void rvo__stall_update(rvo_world *w, float dt, int32_t begin, int32_t end) {
    int32_t i = begin;
#if defined(RVO_SSE2)
    /* four agents at a time: the scalar loop's operations, lane by lane */
    const __m128 zero = _mm_setzero_ps(), progress = _mm_set1_ps(w->stall_progress), step = _mm_set1_ps(dt),
                 most = _mm_set1_ps(1e30f);
    for (; i + 4 <= end && !rvo__no_shortcuts; i += 4) {
        const agent_params *a = w->prm + i;
        const __m128 p01 = _mm_loadu_ps(&w->pref[i].x), p23 = _mm_loadu_ps(&w->pref[i + 2].x);
        const __m128 v01 = _mm_loadu_ps(&w->vel[i].x), v23 = _mm_loadu_ps(&w->vel[i + 2].x);
        const __m128 px = _mm_shuffle_ps(p01, p23, _MM_SHUFFLE(2, 0, 2, 0));
        const __m128 py = _mm_shuffle_ps(p01, p23, _MM_SHUFFLE(3, 1, 3, 1));
        const __m128 vx = _mm_shuffle_ps(v01, v23, _MM_SHUFFLE(2, 0, 2, 0));
        const __m128 vy = _mm_shuffle_ps(v01, v23, _MM_SHUFFLE(3, 1, 3, 1));
        const __m128 pref_sq = _mm_add_ps(_mm_mul_ps(px, px), _mm_mul_ps(py, py));
        const __m128i locked = _mm_set_epi32(a[3].locked, a[2].locked, a[1].locked, a[0].locked);
        const __m128 idle = _mm_or_ps(_mm_cmpeq_ps(pref_sq, zero), /* locked, or not trying to go anywhere */
                                      _mm_castsi128_ps(_mm_xor_si128(
                                          _mm_cmpeq_epi32(locked, _mm_setzero_si128()), _mm_set1_epi32(-1))));
        const __m128 along = _mm_add_ps(_mm_mul_ps(vx, px), _mm_mul_ps(vy, py));
        const __m128 slow = _mm_cmplt_ps(along, _mm_mul_ps(progress, pref_sq));
        const unsigned back = (unsigned)_mm_movemask_ps(
            _mm_or_ps(_mm_cmplt_ps(along, zero), _mm_cmpgt_ps(_mm_loadu_ps(w->carried + i), zero)));
        for (unsigned m = back; m; m &= m - 1) /* (rare: walking back, or carried) */
            update_carried(w, i + __builtin_ctz(m), dt);
        const __m128 s = _mm_add_ps(_mm_loadu_ps(w->stall + i), step);
        const __m128 capped =
            _mm_or_ps(_mm_and_ps(_mm_cmple_ps(s, most), s), _mm_andnot_ps(_mm_cmple_ps(s, most), most));
        _mm_storeu_ps(w->stall + i, _mm_andnot_ps(idle, _mm_and_ps(slow, capped)));
    }
#endif
    for (; i < end; ++i) {
        const rvo_vec2 pref = w->pref[i];
        const float pref_sq = v2_abs_sq(pref);
        if (v2_dot(w->vel[i], pref) < 0.0f || w->carried[i] > 0.0f)
            update_carried(w, i, dt);
        if (w->prm[i].locked || pref_sq == 0.0f) { /* not trying to go anywhere */
            w->stall[i] = 0.0f;
            continue;
        }
        /* progress along the preferred direction, compared without a sqrt:
         * v . pref < progress * |pref|^2 */
        if (v2_dot(w->vel[i], pref) < w->stall_progress * pref_sq)
            w->stall[i] = w->stall[i] + dt <= 1e30f ? w->stall[i] + dt : 1e30f; /* finite under a huge dt */
        else
            w->stall[i] = 0.0f;
    }
}

rvo_status rvo_world_set_stall_threshold(rvo_world *w, float progress, float min_time) {
    if (!w)
        return RVO_ERR_INVALID_ARGUMENT;
    if (!(progress >= 0.0f && progress <= 1.0f))
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 1, "progress must be in [0, 1]");
    if (!(min_time >= 0.0f && min_time <= RVO_MAX_COORD))
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 2, "min_time must be finite and >= 0");
    w->stall_progress = progress;
    w->stall_min_time = min_time;
    rvo__ok(w);
    return RVO_OK;
}

void rvo_world_stall_threshold(const rvo_world *w, float *progress, float *min_time) {
    if (progress)
        *progress = w ? w->stall_progress : 0.0f;
    if (min_time)
        *min_time = w ? w->stall_min_time : 0.0f;
}

int32_t rvo_world_stalled(rvo_world *w, rvo_agent_id *ids, float *times, int32_t cap) {
    if (!w)
        return RVO_ERR_INVALID_ARGUMENT;
    if (cap < 0 || (cap > 0 && !ids))
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 1, "bad output buffer");
    int32_t n = 0;
    for (int32_t i = 0; i < w->count; ++i) {
        /* a zero min_time still needs some stalling: time > 0 */
        if (w->stall[i] <= 0.0f || w->stall[i] < w->stall_min_time)
            continue;
        if (n < cap) {
            ids[n] = w->ids[i];
            if (times)
                times[n] = w->stall[i];
        }
        ++n;
    }
    rvo__ok(w);
    return n;
}

rvo_status rvo_agent_stall_time(const rvo_world *w, rvo_agent_id id, float *out) {
    if (!w || !out)
        return RVO_ERR_INVALID_ARGUMENT;
    const int32_t i = rvo__slot_lookup(&w->agent_slots, id);
    if (i < 0)
        return rvo__fail(w, RVO_ERR_UNKNOWN_ID, 1, "unknown or removed agent id");
    *out = w->stall[i];
    return RVO_OK;
}
