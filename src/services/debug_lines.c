/* Debug view: the ORCA half-planes of one agent, for drawing (the LÖVE
 * demo's selected agent). Built by the same code as the solve
 * (rvo__orca_lines), from the current state. */
#include "index/scratch.h"
#include "solve/give_way.h"
#include "solve/orca.h"
#include "world/world.h"

int32_t rvo_agent_orca_lines(rvo_world *w, rvo_agent_id id, float dt, float *out, int32_t cap,
                             int32_t *num_obstacle) {
    if (!w)
        return RVO_ERR_INVALID_ARGUMENT;
    const int32_t i = rvo__slot_lookup(&w->agent_slots, id);
    if (i < 0)
        return rvo__fail(w, RVO_ERR_UNKNOWN_ID, 1, "unknown or removed agent id");
    if (!isfinite(dt))
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 2, "dt must be finite");
    if (dt < 0)
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 2, "dt must be >= 0");
    if (cap < 0 || (cap > 0 && !out))
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 3, "bad output buffer");
    if (dt == 0)
        dt = w->time_step;
    /* The first worker's scratch, as the queries use it: never during a solve. */
    /* (the solve's flags: resting ones too, rvo__anchored) */
    if (!rvo__prepare(w) || !rvo__update_shares(w, true))
        return rvo__fail(w, RVO_ERR_OUT_OF_MEMORY, 0, "out of memory");
    scratch *s = &w->scratch[0];
    int32_t nobst = 0;
    const int32_t n = rvo__orca_lines(w, i, dt, s, &nobst);
    for (int32_t k = 0; k < n && k < cap; ++k) {
        out[4 * k] = s->lines[k].point.x;
        out[4 * k + 1] = s->lines[k].point.y;
        out[4 * k + 2] = s->lines[k].direction.x;
        out[4 * k + 3] = s->lines[k].direction.y;
    }
    if (num_obstacle)
        *num_obstacle = nobst;
    rvo__ok(w);
    return n;
}
