/* Lock timers: rvo.locks (Unreal's avoidance lock timers) in bulk. After a
 * solve, every agent that takes part is locked to its new velocity for
 * after_avoid seconds when it had to divert, else for after_clean; the
 * timers count down before each solve and a lock ends early when the
 * agent's preferred velocity changed (the script changed its mind) or when
 * the overlap passes had to move it (it pressed into someone). One pass
 * over the agents per call, no per-agent call from a script. */
#include "world/world.h"

#include <string.h>

/* Timers at or below this count as expired: 0.2 - 2 * 0.1 is not exactly 0. */
#define LOCK_EXPIRED 1e-9
/* m: the overlap passes moved a locked agent farther than float error */
#define LOCK_CONTACT 1e-3

static int32_t find(const rvo_world *w, rvo_agent_id id) {
    const int32_t i = rvo__slot_lookup(&w->agent_slots, id);
    if (i < 0)
        rvo__fail(w, RVO_ERR_UNKNOWN_ID, 1, "unknown or removed agent id");
    return i;
}

static void end_lock(rvo_world *w, int32_t i) {
    w->prm[i].locked = 0;
    w->lock[i].left = 0.0;
}

bool rvo__locks_make(rvo_world *w) {
    if (w->lock || w->cap == 0) /* (no agent yet: made with the first that needs it) */
        return true;
    agent_lock *k = rvo__realloc(w, NULL, 0, sizeof *k * (size_t)w->cap);
    if (!k)
        return false;
    memset(k, 0, sizeof *k * (size_t)w->cap); /* no timer, auto lock on */
    w->lock = k;
    return true;
}

int32_t rvo_world_advance_locks(rvo_world *w, double dt) {
    if (!w)
        return RVO_ERR_INVALID_ARGUMENT;
    if (!(dt >= 0.0 && isfinite(dt)))
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 1, "dt must be a finite number >= 0");
    int32_t ended = 0;
    for (int32_t i = 0; w->lock && i < w->count; ++i) {
        agent_lock *k = &w->lock[i];
        if (k->left <= 0.0)
            continue;
        const double left = k->left - dt;
        bool changed = false;
        if (k->release != INFINITY) { /* (compared in double: squares of floats' differences) */
            const double dx = (double)w->pref[i].x - k->pref.x, dy = (double)w->pref[i].y - k->pref.y;
            changed = dx * dx + dy * dy > k->release * k->release;
        }
        if (left <= LOCK_EXPIRED || changed || !w->prm[i].locked) {
            end_lock(w, i);
            ++ended;
        } else {
            k->left = left;
        }
    }
    rvo__ok(w);
    return ended;
}

int32_t rvo_world_lock_solved(rvo_world *w, float tolerance, double after_avoid, double after_clean,
                              double release_on_change, uint32_t groups) {
    if (!w)
        return RVO_ERR_INVALID_ARGUMENT;
    if (!isfinite(tolerance) || tolerance < 0)
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 1, "tolerance must be finite and >= 0");
    if (!(after_avoid >= 0.0 && isfinite(after_avoid)))
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 2, "after_avoid must be a finite number >= 0");
    if (!(after_clean >= 0.0 && isfinite(after_clean)))
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 3, "after_clean must be a finite number >= 0");
    if (!(release_on_change > 0.0))
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 4, "release_on_change must be > 0 (may be infinite)");
    if (!w->solved)
        return rvo__fail(w, RVO_ERR_PHASE, 0, "call it between solve and integrate");
    if (!rvo__locks_make(w))
        return rvo__fail(w, RVO_ERR_OUT_OF_MEMORY, 0, "out of memory");
    const float tol_sq = tolerance * tolerance;
    int32_t avoiding = 0;
    for (int32_t i = 0; i < w->count; ++i) {
        agent_lock *k = &w->lock[i];
        if (w->prm[i].locked || k->no_auto || !(w->prm[i].groups & groups))
            continue;
        if (rvo__idle(w->pref[i], &w->prm[i]))
            continue; /* idle: nothing to smooth, and locked it could not give way to a moving agent */
        const bool diverted = rvo__diverted(w, i, tol_sq);
        const double t = diverted ? after_avoid : after_clean;
        if (t <= LOCK_EXPIRED)
            continue;
        w->prm[i].locked = 1; /* as rvo_agent_lock(its new velocity) */
        w->vel[i] = w->newvel[i];
        k->left = t;
        k->pref = w->pref[i];
        k->release = release_on_change;
        avoiding += diverted;
    }
    rvo__ok(w);
    return avoiding;
}

int32_t rvo_world_release_pushed(rvo_world *w) {
    if (!w)
        return RVO_ERR_INVALID_ARGUMENT;
    if (!w->locks_moved)
        return rvo__fail(w, RVO_ERR_PHASE, 0, "call it after integrate, before the next solve");
    int32_t ended = 0;
    for (int32_t i = 0; w->lock && i < w->count; ++i) {
        if (w->lock[i].left <= 0.0 || !w->prm[i].locked)
            continue;
        const double ex = (double)w->pos[i].x - w->lock[i].moved.x,
                     ey = (double)w->pos[i].y - w->lock[i].moved.y;
        if (ex * ex + ey * ey > LOCK_CONTACT * LOCK_CONTACT) {
            end_lock(w, i);
            ++ended;
        }
    }
    rvo__ok(w);
    return ended;
}

rvo_status rvo_agent_lock_time(const rvo_world *w, rvo_agent_id id, double *out) {
    if (!w || !out)
        return RVO_ERR_INVALID_ARGUMENT;
    const int32_t i = find(w, id);
    if (i < 0)
        return RVO_ERR_UNKNOWN_ID;
    *out = w->prm[i].locked ? rvo__lock_left(w, i) : 0.0;
    rvo__ok(w);
    return RVO_OK;
}

rvo_status rvo_agent_set_auto_lock(rvo_world *w, rvo_agent_id id, bool on) {
    if (!w)
        return RVO_ERR_INVALID_ARGUMENT;
    const int32_t i = find(w, id);
    if (i < 0)
        return RVO_ERR_UNKNOWN_ID;
    if (on && !w->lock) { /* (already on) */
        rvo__ok(w);
        return RVO_OK;
    }
    if (!rvo__locks_make(w))
        return rvo__fail(w, RVO_ERR_OUT_OF_MEMORY, 0, "out of memory");
    if (!on && w->lock[i].left > 0.0)
        end_lock(w, i);
    w->lock[i].no_auto = on ? 0 : 1;
    rvo__ok(w);
    return RVO_OK;
}

int rvo_agent_auto_lock(const rvo_world *w, rvo_agent_id id) {
    if (!w)
        return RVO_ERR_INVALID_ARGUMENT;
    const int32_t i = find(w, id);
    if (i < 0)
        return RVO_ERR_UNKNOWN_ID;
    rvo__ok(w);
    return w->lock && w->lock[i].no_auto ? 0 : 1;
}
