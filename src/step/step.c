/* The top of the core: a world's lifetime (create and destroy reach every
 * layer's state) and the step, which orders the phases: solve
 * (step/solve.c), move, resolve overlaps, refile, stall times. */
#include "index/grid.h"
#include "index/scratch.h"
#include "solve/separate.h"
#include "world/world.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- lifetime ------------------------------------------------------------ */

rvo_world *rvo_world_create(const rvo_world_def *def, rvo_error *err) {
    rvo_world_def defaults;
    if (!def) {
        defaults = rvo_world_def_default();
        def = &defaults;
    }
    if (rvo_world_def_check(def, err) != RVO_OK)
        return NULL;
    rvo_world *w;
    if (def->alloc)
        w = def->alloc(def->alloc_user, NULL, 0, sizeof *w);
    else
        w = malloc(sizeof *w);
    if (!w) {
        rvo__error_set(err, RVO_ERR_OUT_OF_MEMORY, 0, "out of memory");
        return NULL;
    }
    memset(w, 0, sizeof *w);
    w->base.alloc = def->alloc;
    w->base.alloc_user = def->alloc_user;
    w->time_step = def->time_step;
    w->threads = def->threads;
    w->seed = def->seed;
    w->defaults = def->agent;
    w->height_margin = def->height_margin;
    w->stall_progress = RVO_DEFAULT_STALL_PROGRESS; /* stall events */
    w->stall_min_time = RVO_DEFAULT_STALL_MIN_TIME;
    w->strict_overlap = true; /* hard bodies by default */
    w->scratch = rvo__realloc(w, NULL, 0, sizeof(scratch) * (size_t)w->threads);
    if (!w->scratch) {
        rvo_world_destroy(w);
        rvo__error_set(err, RVO_ERR_OUT_OF_MEMORY, 0, "out of memory");
        return NULL;
    }
    memset(w->scratch, 0, sizeof(scratch) * (size_t)w->threads);
    if (!rvo__tasks_start(&w->base, def)) {
        rvo_world_destroy(w);
        rvo__error_set(err, RVO_ERR_OUT_OF_MEMORY, 0, "out of memory (threads)");
        return NULL;
    }
    return w;
}

#define FREE_ARRAY(p, n) (rvo__realloc(w, (p), sizeof(*(p)) * (size_t)(n), 0), (p) = NULL)

void rvo_world_destroy(rvo_world *w) {
    if (!w)
        return;
    rvo__pool_stop(&w->base);
    FREE_ARRAY(w->pos, w->cap);
    FREE_ARRAY(w->vel, w->cap);
    FREE_ARRAY(w->pref, w->cap);
    FREE_ARRAY(w->newvel, w->cap);
    FREE_ARRAY(w->prm, w->cap);
    FREE_ARRAY(w->ids, w->cap);
    FREE_ARRAY(w->stall, w->cap); /* stall events */
    FREE_ARRAY(w->carried, w->cap);
    FREE_ARRAY(w->aim, w->cap);
    FREE_ARRAY(w->knn_hint, w->cap);
    FREE_ARRAY(w->detour, w->cap);
    if (w->lock)
        FREE_ARRAY(w->lock, w->cap); /* lock timers */
    FREE_ARRAY(w->sep_start, w->sep_start_cap);
    FREE_ARRAY(w->sep_cand, w->sep_cand_cap);
    FREE_ARRAY(w->sep_before, w->sep_before_cap);
    FREE_ARRAY(w->sep_active, 4 * w->sep_before_cap);
    FREE_ARRAY(w->solve_cand_at, w->solve_cand_cap);
    FREE_ARRAY(w->uneven, w->uneven_cap);
    rvo__slot_free(&w->base, &w->agent_slots);
    rvo__agent_grid_free(w);
    rvo__obstacles_free(w);
    rvo__edge_grid_free(w);
    if (w->scratch) {
        rvo__scratch_free(w);
        FREE_ARRAY(w->scratch, w->threads);
    }
    if (w->base.alloc)
        w->base.alloc(w->base.alloc_user, w, sizeof *w, 0);
    else
        free(w);
}

typedef struct integrate_ctx {
    rvo_world *w;
    float dt;
    bool refile; /* the overlap pass's grid is to serve the next solve */
} integrate_ctx;

/* The move; with the solve's candidate lists (separate.c) it also keeps
 * the largest squared speed (in two copies: the other modes pay nothing). */
RVO_ALWAYS_INLINE static inline void move_agents(const integrate_ctx *c, int32_t begin, int32_t end,
                                                 scratch *s, const bool track) {
    rvo_world *w = c->w;
    double moved_sq = s->moved_sq;
    for (int32_t i = begin; i < end; ++i) {
        w->vel[i] = w->newvel[i];
        w->pos[i] = v2_add(w->pos[i], v2_mul(w->vel[i], c->dt));
        /* degenerate input: a huge dt must not carry agents to inf */
        w->pos[i] = v2(rvo__clamp_coord(w->pos[i].x), rvo__clamp_coord(w->pos[i].y));
        rvo__locks_record_move(w, i); /* lock timers: rvo_world_release_pushed */
        if (track) { /* (in doubles: squared in floats, tiny speeds read 0 and a huge dt still moved
                        agents a metre, beyond the lists' bound; found by fuzz_ops) */
            const double vx = w->vel[i].x, vy = w->vel[i].y, sq = vx * vx + vy * vy;
            moved_sq = sq > moved_sq ? sq : moved_sq; /* (the new velocities are finite) */
        }
    }
    s->moved_sq = moved_sq;
}

static void move_range(int32_t begin, int32_t end, uint32_t worker, void *p) {
    const integrate_ctx *c = p;
    if (rvo__aim_on(c->w)) /* (before the move: it reads the last one from vel) */
        rvo__aim_commit(c->w, begin, end);
    if (c->w->solve_cand_ok)
        move_agents(c, begin, end, &c->w->scratch[worker], true);
    else
        move_agents(c, begin, end, &c->w->scratch[worker], false);
}

static void finish_range(int32_t begin, int32_t end, uint32_t worker, void *p) {
    (void)worker;
    const integrate_ctx *c = p;
    rvo_world *w = c->w;
    if (!w->rvo2_compat) /* (rvo2_compat: no overlap pass, nothing moved since move_range's clamp) */
        for (int32_t i = begin; i < end; ++i) /* pushed apart at the border, still inside */
            w->pos[i] = v2(rvo__clamp_coord(w->pos[i].x), rvo__clamp_coord(w->pos[i].y));
    if (c->refile)
        rvo__grid_refile(w, begin, end, &w->scratch[worker]);
    rvo__stall_update(w, c->dt, begin, end); /* stall events */
}

/* ---- moving obstacles ------------------------------------------------- */

/* Agents a moving obstacle went over this step are carried along with it:
 * put back where they met its edge (moved with the obstacle), a radius out;
 * then the obstacles move. Locked agents keep their motion (as in the
 * overlap passes). Agent by agent, on the calling thread: no race. */
static void carry_and_move_obstacles(rvo_world *w, float dt) {
    scratch *s = &w->scratch[0];
    const float reach = w->obst_max_speed * dt;
    for (int32_t i = 0; i < w->count; ++i) {
        const agent_params *a = &w->prm[i];
        if (a->locked)
            continue;
        const rvo_vec2 a1 = w->pos[i], a0 = v2_sub(a1, v2_scale(dt, w->vel[i]));
        float t;
        const int32_t e = rvo__moving_edge_crossed(w, s, a0, a1, dt, a->z, a->height, reach, false, &t);
        if (e < 0)
            continue;
        const obst_vertex *v = &w->verts[e];
        const obstacle *ob = &w->obst[v->obstacle];
        const rvo_vec2 disp = v2_scale(dt, ob->vel);
        const rvo_vec2 met = v2_add(a0, v2_scale(t, v2_sub(v2_sub(a1, disp), a0)));
        const rvo_vec2 out = v2(v->unit_dir.y, -v->unit_dir.x); /* the free side */
        const rvo_vec2 p = v2_add(v2_add(met, disp), v2_scale(a->radius, out));
        w->pos[i] = v2(rvo__clamp_coord(p.x), rvo__clamp_coord(p.y));
        if (w->strict_overlap) /* its velocity is the motion it really made */
            w->vel[i] = v2_scale(1.0f / dt, v2_sub(w->pos[i], a0));
    }
    rvo__obstacles_move(w, dt);
}

rvo_status rvo_world_integrate(rvo_world *w, float dt) {
    if (!w)
        return RVO_ERR_INVALID_ARGUMENT;
    const rvo_status bad_dt = rvo__check_dt(w, dt);
    if (bad_dt != RVO_OK)
        return bad_dt;
    if (!w->solved)
        return rvo__fail(w, RVO_ERR_PHASE, 0, "call solve first");
    /* moving obstacles need the edge grid of their old places: built before
     * anything moves, so that running out of memory changes nothing */
    const bool carry = w->obst_moving > 0 && !w->rvo2_compat;
    if (carry && ((!w->egrid.valid && !rvo__edge_grid_build(w)) || !rvo__scratch_reserve(w)))
        return rvo__fail(w, RVO_ERR_OUT_OF_MEMORY, 0, "out of memory");
    integrate_ctx c = {w, dt, false};
    for (int32_t k = 0; k < w->threads; ++k)
        w->scratch[k].moved_sq = 0.0;
    rvo__pool_for(&w->base, w->count, RVO_LOOP_CHUNK, move_range, &c);
    double moved_sq = 0.0;
    for (int32_t k = 0; k < w->threads; ++k)
        moved_sq = w->scratch[k].moved_sq > moved_sq ? w->scratch[k].moved_sq : moved_sq;
    const double moved = sqrt(moved_sq) * fabs((double)dt);
    w->moved_max = moved < (double)FLT_MAX ? (float)moved : INFINITY; /* (inf: no lists from the solve) */
    w->aim_dt = dt; /* (world/aim.c: the move is vel * aim_dt) */
    w->solved = false;
    if (carry) {
        w->solve_cand_ok = false; /* (agents carried: not by their velocities) */
        carry_and_move_obstacles(w, dt);
    } else if (w->obst_moving > 0)
        rvo__obstacles_move(w, dt);
    w->grid.valid = false;
    const rvo_status sep = rvo__separate(w, dt, &c.refile);
    if (sep == RVO_ERR_OUT_OF_MEMORY)
        return rvo__fail(w, sep, 0, "out of memory");
    if (sep != RVO_OK)
        return rvo__fail(w, sep, 0, "task hook: ranges must cover every agent once, with worker < threads");
    /* The overlap pass built a grid of the moved agents (one grid build per
     * step, not two): refreshed where the passes moved them, it serves the
     * next solve, exact with its slack. */
    for (int32_t k = 0; k < w->threads; ++k)
        w->scratch[k].slack = 0.0f;
    rvo__pool_for(&w->base, w->count, RVO_LOOP_CHUNK, finish_range, &c);
    if (c.refile) {
        float slack = 0.0f;
        for (int32_t k = 0; k < w->threads; ++k)
            slack = w->scratch[k].slack > slack ? w->scratch[k].slack : slack;
        w->grid.slack += slack;
        w->grid.valid = true;
    }
    w->locks_moved = true; /* lock timers: rvo_world_release_pushed */
    rvo__ok(w);
    return RVO_OK;
}

rvo_status rvo_world_step(rvo_world *w, float dt) {
    if (!w)
        return RVO_ERR_INVALID_ARGUMENT;
    if (dt == 0.0f)
        dt = w->time_step;
    rvo_status s = rvo_world_solve(w, dt);
    if (s != RVO_OK)
        return s;
    return rvo_world_integrate(w, dt);
}
