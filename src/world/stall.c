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

void rvo__stall_update(rvo_world *w, float dt, int32_t begin, int32_t end) {
    for (int32_t i = begin; i < end; ++i) {
        const rvo_vec2 pref = w->pref[i];
        const float pref_sq = v2_abs_sq(pref);
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
