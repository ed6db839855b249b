/* ORCA for one agent, computed as RVO2 computes it (same operations in the
 * same order, in float), plus guards where RVO2 would divide by zero. */
#include "solve/orca.h"
#include "index/grid.h"
#include "solve/give_way.h"

/* RVO2's leftOf: > 0 when c is left of the line a->b. */
static float left_of(rvo_vec2 a, rvo_vec2 b, rvo_vec2 c) { return v2_det(v2_sub(a, c), v2_sub(b, a)); }

static float dist_sq_point_segment(rvo_vec2 a, rvo_vec2 b, rvo_vec2 c) {
    const float r = v2_dot(v2_sub(c, a), v2_sub(b, a)) / v2_abs_sq(v2_sub(b, a));
    if (r < 0.0f)
        return v2_abs_sq(v2_sub(c, a));
    if (r > 1.0f)
        return v2_abs_sq(v2_sub(c, b));
    return v2_abs_sq(v2_sub(c, v2_add(a, v2_scale(r, v2_sub(b, a)))));
}

/* ---- obstacle neighbours ---------------------------------------------------- */

typedef struct obst_query {
    const rvo_world *w;
    rvo_vec2 p;
    float z, height;
    float range_sq;  /* for edges of moving obstacles */
    float static_sq; /* for the others */
    neighbor *out;
    int32_t n;
} obst_query;

static void visit_edge(void *ctx, int32_t e) {
    obst_query *q = ctx;
    const obst_vertex *v1 = &q->w->verts[e], *v2p = &q->w->verts[v1->next];
    const obstacle *ob = &q->w->obst[v1->obstacle];
    if (!obst_on_floor(ob, q->z, q->height, q->w->height_margin))
        return; /* other floor */
    /* Only edges that face the agent (agent on their right, i.e. outside). */
    if (!(left_of(v1->point, v2p->point, q->p) < 0.0f))
        return;
    const float d = dist_sq_point_segment(v1->point, v2p->point, q->p);
    if (!(d < (ob->vel.x != 0.0f || ob->vel.y != 0.0f ? q->range_sq : q->static_sq)))
        return;
    int32_t j = q->n++;
    while (j > 0 && (d < q->out[j - 1].dist_sq || (d == q->out[j - 1].dist_sq && e < q->out[j - 1].index))) {
        q->out[j] = q->out[j - 1];
        --j;
    }
    q->out[j].dist_sq = d;
    q->out[j].index = e;
}

/* Edges within time_horizon_obst * max_speed + radius, nearest first (an
 * edge of a moving obstacle: plus time_horizon_obst * the fastest
 * obstacle's speed; the other edges are those of a world where nothing
 * moves). */
int32_t rvo__obstacle_neighbors(const rvo_world *w, int32_t i, scratch *s) {
    const agent_params *a = &w->prm[i];
    const float speed = w->obst_moving > 0 ? a->max_speed + w->obst_max_speed : a->max_speed;
    obst_query q = {w,
                    w->pos[i],
                    a->z,
                    a->height,
                    sqrf(a->time_horizon_obst * speed + a->radius),
                    sqrf(a->time_horizon_obst * a->max_speed + a->radius),
                    s->obst,
                    0};
    const float r = sqrtf(q.range_sq);
    rvo__edge_grid_visit(w, s, q.p.x - r, q.p.y - r, q.p.x + r, q.p.y + r, visit_edge, &q);
    return q.n;
}

/* The obstacle edges near agent i, packed for the sampling solvers:
 * L = {a, b} relative to the agent, P = {unit direction, (length, 0)}.
 * Returns their count (nearest first). */
int32_t rvo__pack_obstacle_edges(const rvo_world *w, int32_t i, scratch *s, orca_line *L, orca_line *P) {
    const int32_t nobst = w->nverts > 0 ? rvo__obstacle_neighbors(w, i, s) : 0;
    const rvo_vec2 pos = w->pos[i];
    for (int32_t k = 0; k < nobst; ++k) {
        const obst_vertex *o1 = &w->verts[s->obst[k].index], *o2 = &w->verts[o1->next];
        const rvo_vec2 a = v2_sub(o1->point, pos), b = v2_sub(o2->point, pos);
        L[k].point = a;
        L[k].direction = b;
        P[k].point = o1->unit_dir;
        P[k].direction = v2(v2_abs(v2_sub(b, a)), 0.0f);
    }
    return nobst;
}

/* ---- linear programs (RVO2's linearProgram1/2/3) ----------------------------- */

bool rvo__lp1(const orca_line *lines, int32_t line_no, float radius, rvo_vec2 opt, bool dir_opt,
              rvo_vec2 *result) {
    const orca_line *L = &lines[line_no];
    const float dot = v2_dot(L->point, L->direction);
    const float discriminant = sqrf(dot) + sqrf(radius) - v2_abs_sq(L->point);
    if (discriminant < 0.0f)
        return false; /* max speed circle fully invalidates the line */
    const float sqrt_disc = sqrtf(discriminant);
    float t_left = -dot - sqrt_disc;
    float t_right = -dot + sqrt_disc;
    for (int32_t i = 0; i < line_no; ++i) {
        const float denominator = v2_det(L->direction, lines[i].direction);
        const float numerator = v2_det(lines[i].direction, v2_sub(L->point, lines[i].point));
        if (fabsf(denominator) <= RVO_EPSILON) { /* (almost) parallel lines */
            if (numerator < 0.0f)
                return false;
            continue;
        }
        const float t = numerator / denominator;
        if (denominator >= 0.0f) /* line i bounds line_no on the right */
            t_right = t_right < t ? t_right : t;
        else /* on the left */
            t_left = t_left > t ? t_left : t;
        if (t_left > t_right)
            return false;
    }
    if (dir_opt) {
        if (v2_dot(opt, L->direction) > 0.0f)
            *result = v2_add(L->point, v2_scale(t_right, L->direction));
        else
            *result = v2_add(L->point, v2_scale(t_left, L->direction));
    } else {
        const float t = v2_dot(L->direction, v2_sub(opt, L->point));
        if (t < t_left)
            *result = v2_add(L->point, v2_scale(t_left, L->direction));
        else if (t > t_right)
            *result = v2_add(L->point, v2_scale(t_right, L->direction));
        else
            *result = v2_add(L->point, v2_scale(t, L->direction));
    }
    return true;
}

/* Returns n on success, else the index of the line that failed. */
int32_t rvo__lp2(const orca_line *lines, int32_t n, float radius, rvo_vec2 opt, bool dir_opt,
                 rvo_vec2 *result) {
    rvo_vec2 r; /* in a register: lines cannot alias it */
    if (dir_opt)
        r = v2_mul(opt, radius); /* opt is a unit vector here */
    else if (v2_abs_sq(opt) > sqrf(radius))
        r = v2_mul(v2_normalize(opt), radius);
    else
        r = opt;
    for (int32_t i = 0; i < n; ++i) {
        if (v2_det(lines[i].direction, v2_sub(lines[i].point, r)) > 0.0f) {
            /* r violates constraint i: best point on line i (r stays on failure) */
            rvo_vec2 next;
            if (!rvo__lp1(lines, i, radius, opt, dir_opt, &next)) {
                *result = r;
                return i;
            }
            r = next;
        }
    }
    *result = r;
    return n;
}

/* Infeasible: minimise the largest violation of the agent lines while
 * keeping the obstacle lines (the first num_obst) hard. */
void rvo__lp3(const orca_line *lines, int32_t n, int32_t num_obst, int32_t begin, float radius,
              rvo_vec2 *result, orca_line *proj) {
    float distance = 0.0f;
    for (int32_t i = begin; i < n; ++i) {
        if (v2_det(lines[i].direction, v2_sub(lines[i].point, *result)) > distance) {
            int32_t np = 0;
            for (int32_t j = 0; j < num_obst; ++j)
                proj[np++] = lines[j];
            for (int32_t j = num_obst; j < i; ++j) {
                orca_line line;
                const float determinant = v2_det(lines[i].direction, lines[j].direction);
                if (fabsf(determinant) <= RVO_EPSILON) {
                    if (v2_dot(lines[i].direction, lines[j].direction) > 0.0f)
                        continue; /* same direction */
                    line.point = v2_scale(0.5f, v2_add(lines[i].point, lines[j].point));
                } else {
                    line.point =
                        v2_add(lines[i].point,
                               v2_scale(v2_det(lines[j].direction, v2_sub(lines[i].point, lines[j].point)) /
                                            determinant,
                                        lines[i].direction));
                }
                line.direction = v2_normalize(v2_sub(lines[j].direction, lines[i].direction));
                proj[np++] = line;
            }
            const rvo_vec2 temp = *result;
            if (rvo__lp2(proj, np, radius, v2(-lines[i].direction.y, lines[i].direction.x), true, result) <
                np) {
                /* only by rounding: keep the previous result */
                *result = temp;
            }
            distance = v2_det(lines[i].direction, v2_sub(lines[i].point, *result));
        }
    }
}

/* ---- ORCA lines ------------------------------------------------------------ */

/* A line built relative to a moving obstacle, back in the agent's own
 * velocity space: shifted by the obstacle's velocity. */
static inline orca_line shifted(orca_line line, rvo_vec2 vo, bool moving) {
    if (moving)
        line.point = v2_add(line.point, vo);
    return line;
}

static int32_t obstacle_lines(const rvo_world *w, int32_t ai, scratch *s, int32_t nobst) {
    const rvo_vec2 position = w->pos[ai], agent_velocity = w->vel[ai];
    const float radius = w->prm[ai].radius;
    const float inv_th = 1.0f / rvo__min_time(w->prm[ai].time_horizon_obst);
    orca_line *lines = s->lines;
    int32_t nl = 0;
    /* Static edges first, as RVO2 builds them; then the edges of moving
     * obstacles, each avoided in its own frame (relative velocity, as a
     * moving agent is), never skipped as covered by another's lines. */
    const int passes = w->obst_moving > 0 ? 2 : 1;

    for (int pass = 0; pass < passes; ++pass)
        for (int32_t k = 0; k < nobst; ++k) {
            const obst_vertex *o1 = &w->verts[s->obst[k].index];
            const obst_vertex *o2 = &w->verts[o1->next];
            const rvo_vec2 vo = passes > 1 ? w->obst[o1->obstacle].vel : v2(0.0f, 0.0f);
            const bool moving = vo.x != 0.0f || vo.y != 0.0f;
            if (moving != (pass == 1))
                continue;
            const rvo_vec2 velocity = moving ? v2_sub(agent_velocity, vo) : agent_velocity;
            const rvo_vec2 rel1 = v2_sub(o1->point, position);
            const rvo_vec2 rel2 = v2_sub(o2->point, position);

            /* Skip if the lines built so far already cover this obstacle's VO. */
            bool covered = false;
            for (int32_t j = 0; j < (moving ? 0 : nl); ++j) {
                if (v2_det(v2_sub(v2_scale(inv_th, rel1), lines[j].point), lines[j].direction) -
                            inv_th * radius >=
                        -RVO_EPSILON &&
                    v2_det(v2_sub(v2_scale(inv_th, rel2), lines[j].point), lines[j].direction) -
                            inv_th * radius >=
                        -RVO_EPSILON) {
                    covered = true;
                    break;
                }
            }
            if (covered)
                continue;

            const float dist_sq1 = v2_abs_sq(rel1);
            const float dist_sq2 = v2_abs_sq(rel2);
            const float radius_sq = sqrf(radius);
            const rvo_vec2 obstacle_vector = v2_sub(o2->point, o1->point);
            const float sv = v2_dot(v2_neg(rel1), obstacle_vector) / v2_abs_sq(obstacle_vector);
            const float dist_sq_line = v2_abs_sq(v2_sub(v2_neg(rel1), v2_scale(sv, obstacle_vector)));
            orca_line line;

            if (sv < 0.0f && dist_sq1 <= radius_sq) {
                /* Collision with the left vertex; ignored if non-convex. */
                if (o1->convex) {
                    line.point = v2(0.0f, 0.0f);
                    line.direction =
                        dist_sq1 > 0.0f ? v2_normalize(v2(-rel1.y, rel1.x)) : v2_neg(o1->unit_dir);
                    lines[nl++] = shifted(line, vo, moving);
                }
                continue;
            } else if (sv >= 1.0f && dist_sq2 <= radius_sq) {
                /* Collision with the right vertex; ignored if non-convex or if the
                 * neighbouring edge takes care of it. (RVO2 tests sv > 1 and, at
                 * sv == 1 exactly, takes the square root of a negative number;
                 * found by fuzzing.) */
                if (o2->convex && v2_det(rel2, o2->unit_dir) >= 0.0f) {
                    line.point = v2(0.0f, 0.0f);
                    line.direction =
                        dist_sq2 > 0.0f ? v2_normalize(v2(-rel2.y, rel2.x)) : v2_neg(o1->unit_dir);
                    lines[nl++] = shifted(line, vo, moving);
                }
                continue;
            } else if (sv >= 0.0f && sv < 1.0f && dist_sq_line <= radius_sq) {
                /* Collision with the segment. */
                line.point = v2(0.0f, 0.0f);
                line.direction = v2_neg(o1->unit_dir);
                lines[nl++] = shifted(line, vo, moving);
                continue;
            }

            /* No collision: compute the legs. Seen obliquely, both legs can come
             * from one vertex; at a non-convex vertex a leg extends the cut-off. */
            rvo_vec2 left_leg, right_leg;
            if (sv < 0.0f && dist_sq_line <= radius_sq) {
                /* Seen obliquely: the left vertex defines the velocity obstacle. */
                if (!o1->convex)
                    continue;
                o2 = o1;
                const float leg1 = sqrtf(dist_sq1 - radius_sq);
                left_leg =
                    v2_div(v2(rel1.x * leg1 - rel1.y * radius, rel1.x * radius + rel1.y * leg1), dist_sq1);
                right_leg =
                    v2_div(v2(rel1.x * leg1 + rel1.y * radius, -rel1.x * radius + rel1.y * leg1), dist_sq1);
            } else if (sv > 1.0f && dist_sq_line <= radius_sq) {
                /* Seen obliquely: the right vertex defines it. */
                if (!o2->convex)
                    continue;
                o1 = o2;
                const float leg2 = sqrtf(dist_sq2 - radius_sq);
                left_leg =
                    v2_div(v2(rel2.x * leg2 - rel2.y * radius, rel2.x * radius + rel2.y * leg2), dist_sq2);
                right_leg =
                    v2_div(v2(rel2.x * leg2 + rel2.y * radius, -rel2.x * radius + rel2.y * leg2), dist_sq2);
            } else {
                /* The usual case. */
                if (o1->convex) {
                    const float leg1 = sqrtf(dist_sq1 - radius_sq);
                    left_leg = v2_div(v2(rel1.x * leg1 - rel1.y * radius, rel1.x * radius + rel1.y * leg1),
                                      dist_sq1);
                } else {
                    left_leg = v2_neg(o1->unit_dir); /* non-convex: extends the cut-off line */
                }
                if (o2->convex) {
                    const float leg2 = sqrtf(dist_sq2 - radius_sq);
                    right_leg = v2_div(v2(rel2.x * leg2 + rel2.y * radius, -rel2.x * radius + rel2.y * leg2),
                                       dist_sq2);
                } else {
                    right_leg = o1->unit_dir;
                }
            }

            /* A leg may not point into the neighbouring edge at a convex vertex:
             * take that edge's cut-off line instead ("foreign" leg, which adds no
             * constraint if the velocity projects onto it). */
            const obst_vertex *left_neighbor = &w->verts[o1->prev];
            bool left_foreign = false, right_foreign = false;
            if (o1->convex && v2_det(left_leg, v2_neg(left_neighbor->unit_dir)) >= 0.0f) {
                left_leg = v2_neg(left_neighbor->unit_dir);
                left_foreign = true;
            }
            if (o2->convex && v2_det(right_leg, o2->unit_dir) <= 0.0f) {
                right_leg = o2->unit_dir;
                right_foreign = true;
            }

            /* Cut-off centres. */
            const rvo_vec2 left_cutoff = v2_scale(inv_th, v2_sub(o1->point, position));
            const rvo_vec2 right_cutoff = v2_scale(inv_th, v2_sub(o2->point, position));
            const rvo_vec2 cutoff_vec = v2_sub(right_cutoff, left_cutoff);
            const bool same = o1 == o2;

            /* Project the current velocity on the velocity obstacle. */
            const float t =
                same ? 0.5f : v2_dot(v2_sub(velocity, left_cutoff), cutoff_vec) / v2_abs_sq(cutoff_vec);
            const float t_left = v2_dot(v2_sub(velocity, left_cutoff), left_leg);
            const float t_right = v2_dot(v2_sub(velocity, right_cutoff), right_leg);

            if ((t < 0.0f && t_left < 0.0f) || (same && t_left < 0.0f && t_right < 0.0f)) {
                /* On the left cut-off circle. */
                const rvo_vec2 wv = v2_sub(velocity, left_cutoff);
                const rvo_vec2 unit_w = v2_abs_sq(wv) > 0.0f ? v2_normalize(wv) : v2_normalize(v2_neg(rel1));
                line.direction = v2(unit_w.y, -unit_w.x);
                line.point = v2_add(left_cutoff, v2_scale(radius * inv_th, unit_w));
                lines[nl++] = shifted(line, vo, moving);
                continue;
            } else if (t > 1.0f && t_right < 0.0f) {
                /* On the right cut-off circle. */
                const rvo_vec2 wv = v2_sub(velocity, right_cutoff);
                const rvo_vec2 unit_w = v2_abs_sq(wv) > 0.0f ? v2_normalize(wv) : v2_normalize(v2_neg(rel2));
                line.direction = v2(unit_w.y, -unit_w.x);
                line.point = v2_add(right_cutoff, v2_scale(radius * inv_th, unit_w));
                lines[nl++] = shifted(line, vo, moving);
                continue;
            }

            /* Project on the left leg, right leg or cut-off line, whichever is closest. */
            const float dist_sq_cutoff =
                (t < 0.0f || t > 1.0f || same)
                    ? INFINITY
                    : v2_abs_sq(v2_sub(velocity, v2_add(left_cutoff, v2_scale(t, cutoff_vec))));
            const float dist_sq_left =
                t_left < 0.0f ? INFINITY
                              : v2_abs_sq(v2_sub(velocity, v2_add(left_cutoff, v2_scale(t_left, left_leg))));
            const float dist_sq_right =
                t_right < 0.0f
                    ? INFINITY
                    : v2_abs_sq(v2_sub(velocity, v2_add(right_cutoff, v2_scale(t_right, right_leg))));

            if (dist_sq_cutoff <= dist_sq_left && dist_sq_cutoff <= dist_sq_right) {
                /* On the cut-off line. */
                line.direction = v2_neg(o1->unit_dir);
                line.point =
                    v2_add(left_cutoff, v2_scale(radius * inv_th, v2(-line.direction.y, line.direction.x)));
                lines[nl++] = shifted(line, vo, moving);
            } else if (dist_sq_left <= dist_sq_right) {
                /* On the left leg. */
                if (left_foreign)
                    continue;
                line.direction = left_leg;
                line.point =
                    v2_add(left_cutoff, v2_scale(radius * inv_th, v2(-line.direction.y, line.direction.x)));
                lines[nl++] = shifted(line, vo, moving);
            } else {
                /* On the right leg. */
                if (right_foreign)
                    continue;
                line.direction = v2_neg(right_leg);
                line.point =
                    v2_add(right_cutoff, v2_scale(radius * inv_th, v2(-line.direction.y, line.direction.x)));
                lines[nl++] = shifted(line, vo, moving);
            }
        }
    return nl;
}

/* Are a and b in one stream (keep-right): nearer than RVO_KEEP_RIGHT_REACH
 * radius sums, velocities and preferred velocities each within
 * acos(RVO_KEEP_RIGHT_COS) of each other? */
static bool same_way(rvo_vec2 u, rvo_vec2 v) {
    const float d = v2_dot(u, v);
    return d > 0.0f && d * d > RVO_KEEP_RIGHT_COS * RVO_KEEP_RIGHT_COS * v2_abs_sq(u) * v2_abs_sq(v);
}
/* Keep-right also needs each of the two to walk where it wants (velocity
 * within acos(RVO_KEEP_RIGHT_ALIGN) of its preferred velocity): a crowd
 * pressing towards one rally point is deflected sideways, and keep-right
 * between its agents kept them circling the point for good. */
static bool aligned(rvo_vec2 v, rvo_vec2 pref) {
    const float d = v2_dot(v, pref);
    return d > 0.0f && d * d > RVO_KEEP_RIGHT_ALIGN * RVO_KEEP_RIGHT_ALIGN * v2_abs_sq(v) * v2_abs_sq(pref);
}
static bool keeps_right(const rvo_world *w, int32_t a, int32_t b, float dist_sq, float combined_radius_sq) {
    return dist_sq < RVO_KEEP_RIGHT_REACH * RVO_KEEP_RIGHT_REACH * combined_radius_sq &&
           same_way(w->vel[a], w->vel[b]) && same_way(w->pref[a], w->pref[b]) &&
           aligned(w->vel[a], w->pref[a]) && aligned(w->vel[b], w->pref[b]);
}

/* Two agents at rest, one of them idle: no leg between them (head_on's
 * opposite-way rule). Their relative velocity is 0, the apex of the
 * velocity obstacle, so a leg passes through the agent's own velocity;
 * legs from parked agents all round left an agent at rest nothing but 0
 * (the last agents home in RVO2's circle stood still for good). */
static inline bool parked_pair(const rvo_world *w, int32_t a, int32_t b) {
    const float still = RVO_IDLE_SPEED * (w->prm[a].max_speed + w->prm[b].max_speed);
    return ((w->uneven[a] | w->uneven[b]) & RVO_UNEVEN_IDLE) &&
           v2_abs_sq(v2_sub(w->vel[a], w->vel[b])) <= still * still;
}

/* Is the head-on pair a, b (rel_pos from a to b, dist_sq its length
 * squared) braking from afar (RVO_HEAD_ON_FAR)? Its cut-off circles only
 * slowed it: a ring of 8 walking to the antipodes at a 5 s horizon braked
 * from 2 m/s to 0.2 over 11 s, mirrored, nobody turning, before one
 * stalled; then it jammed at the centre (docs/quality.md, stop 44). Not in
 * close quarters (a jam) and not at rest (legs through the apex). The
 * operations are head_on4_rest's, lane by lane. */
static inline bool braking_from_afar(const rvo_world *w, int32_t a, int32_t b, rvo_vec2 rel_pos,
                                     float dist_sq) {
    const float sum = w->prm[a].radius + w->prm[b].radius;
    if (!(dist_sq > RVO_HEAD_ON_FAR * RVO_HEAD_ON_FAR * (sum * sum)))
        return false;
    const rvo_vec2 fa = w->pref[a], fb = w->pref[b];
    if (!(v2_dot(w->vel[a], fa) < RVO_HEAD_ON_SLOW * v2_abs_sq(fa) ||
          v2_dot(w->vel[b], fb) < RVO_HEAD_ON_SLOW * v2_abs_sq(fb)))
        return false;
    const float closing = v2_dot(v2_sub(w->vel[a], w->vel[b]), rel_pos);
    const float speeds = sqrtf(v2_abs_sq(fa)) + sqrtf(v2_abs_sq(fb));
    return closing > 0.0f &&
           closing * closing > RVO_HEAD_ON_CLOSING * RVO_HEAD_ON_CLOSING * dist_sq * (speeds * speeds);
}

/* Strict overlap: two agents that want opposite ways, closing on each
 * other within asin(RVO_HEAD_ON_SIN) of the line between them, avoid by a
 * leg of the velocity obstacle even where RVO2 projects on the cut-off
 * circle: the cut-off line only slows them, so an exactly head-on pair
 * braked to a stand, touching, and never passed: once one of them stalls,
 * or while the pair brakes from afar (braking_from_afar). The leg line
 * is a tangent of the whole cone, so it stays safe; both of a pair pick
 * the same side (solve/orca.h's keep-right note). So do two agents
 * crossing at about a right angle, each walking where it wants, once the
 * cut-off circle acts (cut_sq: its radius squared; beyond it the leg would
 * demand avoidance past the horizon): braking, an exactly mirrored pair
 * turned into each other's way and drifted on side by side, slowing. */
static inline bool head_on(const rvo_world *w, int32_t a, int32_t b, rvo_vec2 rel_pos, rvo_vec2 wv,
                           float dist_sq, float w_length_sq, float cut_sq) {
    const float det = v2_det(rel_pos, wv);
    if (!(det * det <= RVO_HEAD_ON_SIN * RVO_HEAD_ON_SIN * dist_sq * w_length_sq))
        return false;
    const float df = v2_dot(w->pref[a], w->pref[b]);
    if (df < 0.0f &&
        (w->stall[a] > 0.0f || w->stall[b] > 0.0f || braking_from_afar(w, a, b, rel_pos, dist_sq)) &&
        !parked_pair(w, a, b))
        return true;
    const float ff = v2_abs_sq(w->pref[a]) * v2_abs_sq(w->pref[b]);
    return w_length_sq < cut_sq && ff > 0.0f &&
           df * df <= RVO_HEAD_ON_CROSS_COS * RVO_HEAD_ON_CROSS_COS * ff && aligned(w->vel[a], w->pref[a]) &&
           aligned(w->vel[b], w->pref[b]);
}

/* The lines of agent ai against the neighbours nb[0 .. nn), at 1 / horizon
 * inv_own: its horizon over all its neighbours (rvo__lines_horizon); but
 * a pair that takes the head-on rule's leg (head_on) at that horizon
 * builds its line at inv_alone, the agent's horizon without the caps that
 * read its neighbours (the nearest, the contacts: settling and crowd caps;
 * at the capped horizon, two of 100 rallies at 60 steps a second and 10 s
 * ended in a tug of war of two agents: docs/quality.md, stop 53).
 * Agent_lines4 sends such lanes here one at a time with both at inv_alone,
 * so the two paths give the same lines bit for bit. (Not inlined: rare
 * there.) */
static RVO_NOINLINE int32_t agent_lines_at(const rvo_world *w, int32_t ai, float dt, float inv_own,
                                           float inv_alone, const neighbor *nb, int32_t nn,
                                           orca_line *lines) {
    const rvo_vec2 position = w->pos[ai], own_velocity = w->vel[ai];
    const agent_params *me = &w->prm[ai];
    const float radius = me->radius;
    const bool rests_still = rvo__rests_still(w, ai);
    const float oncoming = rvo__oncoming_horizon(w, ai); /* (0: none) */
    const float inv_oncoming = oncoming > 0.0f ? 1.0f / rvo__min_time(oncoming) : inv_own;
    const bool strict = w->strict_overlap && !w->rvo2_compat;
    int32_t nl = 0;
    for (int32_t k = 0; k < nn; ++k) {
        const int32_t bi = nb[k].index;
        const float share = rvo__line_share(w, ai, bi);
        /* Share 0 (weight 0 against a movable agent, or the other gives
         * way): it does not yield, the other treats it as a moving
         * obstacle, so it gets no line at all (a line through its own
         * velocity would pin it there). */
        if (share == 0.0f)
            continue;
        const rvo_vec2 rel_pos = v2_sub(w->pos[bi], position);
        const float dist_sq = v2_abs_sq(rel_pos);
        /* two agents at rest that touch: as if both stood still */
        const bool anchored = rests_still && rvo__anchored(w, ai, bi, dist_sq);
        const rvo_vec2 velocity = anchored ? v2(0.0f, 0.0f) : own_velocity;
        const rvo_vec2 rel_vel = anchored ? v2(0.0f, 0.0f) : v2_sub(velocity, w->vel[bi]);
        const bool onc = oncoming > 0.0f && rvo__oncoming(w, ai, bi, share);
        const float combined_radius = radius + w->prm[bi].radius;
        const float combined_radius_sq = sqrf(combined_radius);
        orca_line line;
        rvo_vec2 u;

        if (dist_sq > combined_radius_sq) {
            /* No collision. w: from the cut-off centre to the relative velocity. */
            float inv_th = onc ? inv_oncoming : inv_own;
            rvo_vec2 wv;
            float w_length_sq;
            bool cut_off;
            for (bool again = true; again;) {
                wv = v2_sub(rel_vel, v2_scale(inv_th, rel_pos));
                w_length_sq = v2_abs_sq(wv);
                const float dot1 = v2_dot(wv, rel_pos);
                const bool cut = dot1 < 0.0f && sqrf(dot1) > combined_radius_sq * w_length_sq;
                const bool head =
                    cut && strict &&
                    head_on(w, ai, bi, rel_pos, wv, dist_sq, w_length_sq, sqrf(combined_radius * inv_th));
                cut_off = cut && !head;
                again = head && !onc && inv_th != inv_alone; /* (once: then at inv_alone) */
                if (again)
                    inv_th = inv_alone;
            }
            if (cut_off) {
                /* Project on the cut-off circle. */
                const float w_length = sqrtf(w_length_sq);
                const rvo_vec2 unit_w = v2_div(wv, w_length);
                line.direction = v2(unit_w.y, -unit_w.x);
                u = v2_scale(combined_radius * inv_th - w_length, unit_w);
            } else {
                /* Project on the legs. */
                const float leg = sqrtf(dist_sq - combined_radius_sq);
                /* Strict overlap keeps right within a stream: a pair closing
                 * in less than asin(RVO_KEEP_RIGHT) off head-on takes the
                 * right leg (RVO2: the nearer leg). Both agents of a pair
                 * see the same sign, so they pick matching sides; any leg
                 * is a tangent of the velocity obstacle, so the line stays
                 * safe. A dense swap then turns into a vortex instead of a
                 * jam; between agents crossing or meeting, or against one
                 * that does not share the correction, the nearer leg is
                 * better, and so for the agent catching up with one walking
                 * away ahead of it (overtaking on the right pushed door
                 * queues into the jamb; measured: docs/quality.md). */
                const float left_margin =
                    strict && share < 1.0f && keeps_right(w, ai, bi, dist_sq, combined_radius_sq) &&
                            !(v2_dot(velocity, rel_pos) > 0.0f && v2_dot(w->vel[bi], rel_pos) > 0.0f)
                        ? RVO_KEEP_RIGHT * sqrtf(dist_sq * w_length_sq)
                        : 0.0f;
                if (v2_det(rel_pos, wv) > left_margin) /* left leg */
                    line.direction = v2_div(v2(rel_pos.x * leg - rel_pos.y * combined_radius,
                                               rel_pos.x * combined_radius + rel_pos.y * leg),
                                            dist_sq);
                else /* right leg */
                    line.direction = v2_neg(v2_div(v2(rel_pos.x * leg + rel_pos.y * combined_radius,
                                                      -rel_pos.x * combined_radius + rel_pos.y * leg),
                                                   dist_sq));
                const float dot2 = v2_dot(rel_vel, line.direction);
                u = v2_sub(v2_scale(dot2, line.direction), rel_vel);
            }
        } else {
            /* Collision: project on the cut-off circle of time dt. */
            const float inv_dt = 1.0f / rvo__min_time(dt);
            const rvo_vec2 wv = v2_sub(rel_vel, v2_scale(inv_dt, rel_pos));
            const float w_length = v2_abs(wv);
            rvo_vec2 unit_w;
            if (w_length > 1e-18f)
                unit_w = v2_div(wv, w_length);
            else if (dist_sq > 0.0f) /* w vanished: push straight apart */
                unit_w = v2_normalize(v2_neg(rel_pos));
            else /* same spot: a direction fixed by the two ids */
                unit_w = rvo__split_direction(w->ids[ai], w->ids[bi]);
            line.direction = v2(unit_w.y, -unit_w.x);
            u = v2_scale(combined_radius * inv_dt - w_length, unit_w);
        }
        /* (u points back into the allowed side: a correction; else room) */
        const float s = v2_det(line.direction, u) < 0.0f ? rvo__room_share(share) : share;
        line.point = v2_add(velocity, v2_scale(s, u));
        lines[nl++] = line;
    }
    return nl;
}

/* 1 / agent i's horizon without the caps that read its neighbours */
static float inv_alone_horizon(const rvo_world *w, int32_t i) {
    return 1.0f / rvo__min_time(rvo__lines_horizon(w, i, NULL, 0));
}

static RVO_NOINLINE int32_t agent_lines(const rvo_world *w, int32_t ai, float dt, const neighbor *nb,
                                        int32_t nn, orca_line *lines) {
    const float inv_own = 1.0f / rvo__min_time(rvo__lines_horizon(w, ai, nb, nn));
    /* (an agent resting still keeps its own horizon for every line: else a
     * rally at 60 steps a second ended in a tug of war; docs/quality.md, stop 53) */
    const float inv_alone = rvo__rests_still(w, ai) ? inv_own : inv_alone_horizon(w, ai);
    return agent_lines_at(w, ai, dt, inv_own, inv_alone, nb, nn, lines);
}

#if defined(RVO_SSE2)
/* agent_lines for four neighbours at a time (performance): the
 * same float operations in the same order, lane by lane, keep-right
 * included, so the same lines bit for bit (RVO2 conformance and the
 * default mode run through here). Both projections are computed and the
 * right one kept per lane; shares are 0.5 unless the agent or the
 * neighbour has the uneven flag (rvo__update_shares), then line_share's;
 * the lines of a colliding pair and of one the head-on rule takes come
 * from agent_lines_at. */
static inline __m128 gather_x(const rvo_vec2 *v, const int32_t *j, __m128 *y) {
    /* (__m64 may alias the floats) */
    const __m128 a =
        _mm_loadh_pi(_mm_loadl_pi(_mm_setzero_ps(), (const __m64 *)&v[j[0]]), (const __m64 *)&v[j[1]]);
    const __m128 b =
        _mm_loadh_pi(_mm_loadl_pi(_mm_setzero_ps(), (const __m64 *)&v[j[2]]), (const __m64 *)&v[j[3]]);
    *y = _mm_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 3, 1));
    return _mm_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0));
}

static inline __m128 select_ps(__m128 mask, __m128 a, __m128 b) {
    return _mm_or_ps(_mm_and_ps(mask, a), _mm_andnot_ps(mask, b));
}

/* What agent_lines4's blocks share: the agent's terms, broadcast. */
typedef struct lines4_ctx {
    const rvo_world *w;
    int32_t ai;
    float dt;
    bool keep_right; /* agent_lines' left_margin can be non-zero */
    bool a_aligned;  /* keep-right: aligned(a) */
    bool one_radius; /* every agent has the grid's largest radius */
    __m128 px, py, vx, vy, rad;
    __m128 inv_th;               /* 1 / horizon, per lane of the block (the oncoming horizon) */
    float inv_own, inv_oncoming; /* 1 / its own horizon and the oncoming one (give_way.h) */
    bool oncoming;               /* the oncoming horizon can apply to this agent's lines */
    __m128 cr_all;               /* one_radius: the radius sum of every pair */
    __m128 fx, fy, cv, cf;       /* keep-right: preferred velocity, cos^2 |v|^2, cos^2 |pref|^2 */
    __m128 f2;                   /* head_on(): |pref|^2 */
} lines4_ctx;

#define LINES4_INLINE RVO_ALWAYS_INLINE static inline

/* head_on() for the lanes of near (closing within asin(RVO_HEAD_ON_SIN) of
 * the line between them, on the cut-off circle), as lane bits. Out of line:
 * a ring of agents walking the same way meets the first test on most
 * blocks and the second on few; inlined, its registers cost every block.
 * The preferred velocities decide first: a lane neither opposite (df < 0,
 * opp's term) nor crossing (cross's terms on df) is out, the same float
 * operations as below, so the same lanes. */
static RVO_NOINLINE unsigned head_on4_rest(const lines4_ctx *c, const int32_t *j, __m128 near, __m128 wls,
                                           __m128 cr, __m128 bfx, __m128 bfy, __m128 df, __m128 bf2,
                                           __m128 cross, __m128 rpx, __m128 rpy, __m128 dist_sq) {
    const rvo_world *w = c->w;
    const __m128 zero = _mm_setzero_ps(), all = _mm_castsi128_ps(_mm_set1_epi32(-1));
    const __m128 stalled =
        _mm_cmpgt_ps(_mm_set_ps(w->stall[j[3]], w->stall[j[2]], w->stall[j[1]], w->stall[j[0]]), zero);
    __m128 bvy;
    const __m128 bvx = gather_x(w->vel, j, &bvy);
    const __m128 db = _mm_add_ps(_mm_mul_ps(bvx, bfx), _mm_mul_ps(bvy, bfy));
    const __m128 rvx = _mm_sub_ps(c->vx, bvx), rvy = _mm_sub_ps(c->vy, bvy);
    /* braking_from_afar's lanes */
    const float fa2 = _mm_cvtss_f32(c->f2); /* (|pref|^2, as head_on4 has it) */
    const __m128 slowed = v2_dot(w->vel[c->ai], w->pref[c->ai]) < RVO_HEAD_ON_SLOW * fa2
                              ? all
                              : _mm_cmplt_ps(db, _mm_mul_ps(_mm_set1_ps(RVO_HEAD_ON_SLOW), bf2));
    const __m128 far =
        _mm_cmpgt_ps(dist_sq, _mm_mul_ps(_mm_set1_ps(RVO_HEAD_ON_FAR * RVO_HEAD_ON_FAR), _mm_mul_ps(cr, cr)));
    const __m128 closing = _mm_add_ps(_mm_mul_ps(rvx, rpx), _mm_mul_ps(rvy, rpy));
    const __m128 speeds = _mm_add_ps(_mm_set1_ps(sqrtf(fa2)), _mm_sqrt_ps(bf2));
    const __m128 fast = _mm_and_ps(
        _mm_cmpgt_ps(closing, zero),
        _mm_cmpgt_ps(_mm_mul_ps(closing, closing),
                     _mm_mul_ps(_mm_mul_ps(_mm_set1_ps(RVO_HEAD_ON_CLOSING * RVO_HEAD_ON_CLOSING), dist_sq),
                                _mm_mul_ps(speeds, speeds))));
    const __m128 any =
        _mm_or_ps(w->stall[c->ai] > 0.0f ? all : stalled, _mm_and_ps(far, _mm_and_ps(slowed, fast)));
    const __m128 bv2 = _mm_add_ps(_mm_mul_ps(bvx, bvx), _mm_mul_ps(bvy, bvy));
    const __m128 b_aligned = _mm_and_ps(
        _mm_cmpgt_ps(db, zero),
        _mm_cmpgt_ps(
            _mm_mul_ps(db, db),
            _mm_mul_ps(_mm_mul_ps(_mm_set1_ps(RVO_KEEP_RIGHT_ALIGN * RVO_KEEP_RIGHT_ALIGN), bv2), bf2)));
    /* parked_pair's lanes */
    const uint8_t *u = w->uneven;
    const __m128i idle = _mm_set_epi32(u[j[3]] & RVO_UNEVEN_IDLE, u[j[2]] & RVO_UNEVEN_IDLE,
                                       u[j[1]] & RVO_UNEVEN_IDLE, u[j[0]] & RVO_UNEVEN_IDLE);
    const __m128 one_idle = (u[c->ai] & RVO_UNEVEN_IDLE)
                                ? _mm_castsi128_ps(_mm_set1_epi32(-1))
                                : _mm_castsi128_ps(_mm_cmpgt_epi32(idle, _mm_setzero_si128()));
    const agent_params *prm = w->prm;
    const __m128 ms =
        _mm_set_ps(prm[j[3]].max_speed, prm[j[2]].max_speed, prm[j[1]].max_speed, prm[j[0]].max_speed);
    const __m128 still =
        _mm_mul_ps(_mm_set1_ps(RVO_IDLE_SPEED), _mm_add_ps(_mm_set1_ps(prm[c->ai].max_speed), ms));
    const __m128 parked =
        _mm_and_ps(one_idle, _mm_cmple_ps(_mm_add_ps(_mm_mul_ps(rvx, rvx), _mm_mul_ps(rvy, rvy)),
                                          _mm_mul_ps(still, still)));
    const __m128 opp = _mm_andnot_ps(parked, _mm_and_ps(any, _mm_cmplt_ps(df, zero)));
    const __m128 cut_r = _mm_mul_ps(cr, c->inv_th);
    cross = c->a_aligned
                ? _mm_and_ps(_mm_and_ps(cross, b_aligned), _mm_cmplt_ps(wls, _mm_mul_ps(cut_r, cut_r)))
                : zero;
    return (unsigned)_mm_movemask_ps(_mm_and_ps(near, _mm_or_ps(opp, cross)));
}

LINES4_INLINE unsigned head_on4(const lines4_ctx *c, const int32_t *j, __m128 near, __m128 wls, __m128 cr,
                                __m128 rpx, __m128 rpy, __m128 dist_sq) {
    const __m128 zero = _mm_setzero_ps();
    __m128 bfy;
    const __m128 bfx = gather_x(c->w->pref, j, &bfy);
    const __m128 df = _mm_add_ps(_mm_mul_ps(c->fx, bfx), _mm_mul_ps(c->fy, bfy)); /* (set with keep_right) */
    const __m128 bf2 = _mm_add_ps(_mm_mul_ps(bfx, bfx), _mm_mul_ps(bfy, bfy));
    const __m128 ff = _mm_mul_ps(c->f2, bf2);
    const __m128 cross =
        _mm_and_ps(_mm_cmpgt_ps(ff, zero),
                   _mm_cmple_ps(_mm_mul_ps(df, df),
                                _mm_mul_ps(_mm_set1_ps(RVO_HEAD_ON_CROSS_COS * RVO_HEAD_ON_CROSS_COS), ff)));
    if (!_mm_movemask_ps(_mm_and_ps(near, _mm_or_ps(_mm_cmplt_ps(df, zero), cross))))
        return 0; /* neither opp nor cross can hold */
    return head_on4_rest(c, j, near, wls, cr, bfx, bfy, df, bf2, cross, rpx, rpy, dist_sq);
}

/* keeps_right() for the lanes of on (a share below 1, near): the
 * velocities and preferred velocities each within the stream's angle, both
 * aligned(), not both moving away along rel_pos; returns the left margin
 * per lane (0 where it does not keep right). Out of line (registers). */
static RVO_NOINLINE __m128 keep_right_margin4(const lines4_ctx *c, const int32_t *j, __m128 on, __m128 bvx,
                                              __m128 bvy, __m128 rpx, __m128 rpy, __m128 dist_sq,
                                              __m128 wls) {
    const __m128 zero = _mm_setzero_ps(), vx = c->vx, vy = c->vy;
    __m128 bfy;
    const __m128 bfx = gather_x(c->w->pref, j, &bfy);
    const __m128 dv = _mm_add_ps(_mm_mul_ps(vx, bvx), _mm_mul_ps(vy, bvy));
    const __m128 bv2 = _mm_add_ps(_mm_mul_ps(bvx, bvx), _mm_mul_ps(bvy, bvy));
    const __m128 df = _mm_add_ps(_mm_mul_ps(c->fx, bfx), _mm_mul_ps(c->fy, bfy));
    const __m128 bf2 = _mm_add_ps(_mm_mul_ps(bfx, bfx), _mm_mul_ps(bfy, bfy));
    on = _mm_and_ps(
        on, _mm_and_ps(_mm_cmpgt_ps(dv, zero), _mm_cmpgt_ps(_mm_mul_ps(dv, dv), _mm_mul_ps(c->cv, bv2))));
    on = _mm_and_ps(
        on, _mm_and_ps(_mm_cmpgt_ps(df, zero), _mm_cmpgt_ps(_mm_mul_ps(df, df), _mm_mul_ps(c->cf, bf2))));
    const __m128 db = _mm_add_ps(_mm_mul_ps(bvx, bfx), _mm_mul_ps(bvy, bfy)); /* aligned(b) */
    const __m128 ca = _mm_set1_ps(RVO_KEEP_RIGHT_ALIGN * RVO_KEEP_RIGHT_ALIGN);
    on = _mm_and_ps(on, _mm_and_ps(_mm_cmpgt_ps(db, zero),
                                   _mm_cmpgt_ps(_mm_mul_ps(db, db), _mm_mul_ps(_mm_mul_ps(ca, bv2), bf2))));
    const __m128 away_a = _mm_cmpgt_ps(_mm_add_ps(_mm_mul_ps(vx, rpx), _mm_mul_ps(vy, rpy)), zero);
    const __m128 away_b = _mm_cmpgt_ps(_mm_add_ps(_mm_mul_ps(bvx, rpx), _mm_mul_ps(bvy, rpy)), zero);
    on = _mm_andnot_ps(_mm_and_ps(away_a, away_b), on);
    if (!_mm_movemask_ps(on))
        return zero;
    return _mm_and_ps(on, _mm_mul_ps(_mm_set1_ps(RVO_KEEP_RIGHT), _mm_sqrt_ps(_mm_mul_ps(dist_sq, wls))));
}

/* lines_block4's rare case: lanes without a line or from agent_lines_at. */
static RVO_NOINLINE int32_t lines_mixed(const lines4_ctx *c, const neighbor *nb, int32_t m, unsigned coll,
                                        unsigned none, const orca_line *r, orca_line *out) {
    const float inv_alone = coll ? inv_alone_horizon(c->w, c->ai) : 0.0f;
    int32_t nl = 0;
    for (int32_t l = 0; l < m; ++l) {
        if (none >> l & 1u)
            continue; /* share 0: no line (agent_lines) */
        if (coll >> l & 1u)
            nl += agent_lines_at(c->w, c->ai, c->dt, inv_alone, inv_alone, nb + l, 1, out + nl);
        else
            out[nl++] = r[l];
    }
    return nl;
}

/* The lines of the m <= 4 neighbours nb[0 .. m) (indices j, short blocks
 * padded with the first) into out, shares per lane (lane bits in none:
 * share 0, no line; weighted: some lane's share is other than 0, 1/2 and
 * 1, rvo__room_share's); returns their count. Inlined twice, once with the
 * constant share 0.5 (the common case, fewer registers in use). */
LINES4_INLINE int32_t lines_block4(const lines4_ctx *c, const neighbor *nb, const int32_t *j, int32_t m,
                                   __m128 share, bool weighted, unsigned none, orca_line *out) {
    const rvo_world *w = c->w;
    const __m128 zero = _mm_setzero_ps(), one = _mm_set1_ps(1.0f), sign = _mm_set1_ps(-0.0f);
    __m128 bpy, bvy;
    const __m128 bpx = gather_x(w->pos, j, &bpy), bvx = gather_x(w->vel, j, &bvy);
    const __m128 vx = c->vx, vy = c->vy, inv_th = c->inv_th;
    const __m128 rpx = _mm_sub_ps(bpx, c->px), rpy = _mm_sub_ps(bpy, c->py); /* rel_pos */
    const __m128 rvx = _mm_sub_ps(vx, bvx), rvy = _mm_sub_ps(vy, bvy);       /* rel_vel */
    const __m128 dist_sq = _mm_add_ps(_mm_mul_ps(rpx, rpx), _mm_mul_ps(rpy, rpy));
    /* (one radius: every lane's sum is cr_all's) */
    const __m128 cr = c->one_radius
                          ? c->cr_all
                          : _mm_add_ps(c->rad, _mm_set_ps(w->prm[j[3]].radius, w->prm[j[2]].radius,
                                                          w->prm[j[1]].radius, w->prm[j[0]].radius));
    const __m128 crs = _mm_mul_ps(cr, cr);
    /* colliding pairs (lane bits): their lines from agent_lines */
    unsigned coll = ~(unsigned)_mm_movemask_ps(_mm_cmpgt_ps(dist_sq, crs)) & 15u & ~none;
    const __m128 wx = _mm_sub_ps(rvx, _mm_mul_ps(inv_th, rpx)), wy = _mm_sub_ps(rvy, _mm_mul_ps(inv_th, rpy));
    const __m128 wls = _mm_add_ps(_mm_mul_ps(wx, wx), _mm_mul_ps(wy, wy));
    const __m128 dot1 = _mm_add_ps(_mm_mul_ps(wx, rpx), _mm_mul_ps(wy, rpy));
    const __m128 cut =
        _mm_and_ps(_mm_cmplt_ps(dot1, zero), _mm_cmpgt_ps(_mm_mul_ps(dot1, dot1), _mm_mul_ps(crs, wls)));
    const int cuts = _mm_movemask_ps(cut);
    __m128 dx, dy, ux, uy;
    if (cuts != 0) { /* cut-off circle */
        const __m128 wl = _mm_sqrt_ps(wls);
        const __m128 winv = _mm_div_ps(one, wl);
        const __m128 uwx = _mm_mul_ps(wx, winv), uwy = _mm_mul_ps(wy, winv);
        const __m128 sc = _mm_sub_ps(_mm_mul_ps(cr, inv_th), wl);
        dx = uwy, dy = _mm_xor_ps(sign, uwx);
        ux = _mm_mul_ps(sc, uwx), uy = _mm_mul_ps(sc, uwy);
        if (c->keep_right) { /* head_on(): those lanes from agent_lines (rare) */
            const __m128 det = _mm_sub_ps(_mm_mul_ps(rpx, wy), _mm_mul_ps(rpy, wx));
            const __m128 k2 = _mm_set1_ps(RVO_HEAD_ON_SIN * RVO_HEAD_ON_SIN);
            const __m128 near =
                _mm_and_ps(cut, _mm_cmple_ps(_mm_mul_ps(det, det), _mm_mul_ps(_mm_mul_ps(k2, dist_sq), wls)));
            if (_mm_movemask_ps(near))
                coll |= head_on4(c, j, near, wls, cr, rpx, rpy, dist_sq) & ((1u << m) - 1u) & ~none;
        }
    }
    if (cuts != 15) { /* legs */
        const __m128 leg = _mm_sqrt_ps(_mm_sub_ps(dist_sq, crs));
        __m128 margin = zero;
        /* keeps_right(): a share below 1, near, velocities and preferred
         * velocities each within the stream's angle, both aligned(), not
         * both moving away along rel_pos (the terms ANDed, the first two
         * first: most pairs are not near) */
        const __m128 reach_sq = _mm_set1_ps(RVO_KEEP_RIGHT_REACH * RVO_KEEP_RIGHT_REACH);
        __m128 on = zero;
        if (c->keep_right && c->a_aligned)
            on = _mm_and_ps(_mm_cmplt_ps(share, one), _mm_cmplt_ps(dist_sq, _mm_mul_ps(reach_sq, crs)));
        if (c->keep_right && _mm_movemask_ps(on))
            margin = keep_right_margin4(c, j, on, bvx, bvy, rpx, rpy, dist_sq, wls);
        const __m128 left = _mm_cmpgt_ps(_mm_sub_ps(_mm_mul_ps(rpx, wy), _mm_mul_ps(rpy, wx)), margin);
        const __m128 dinv = _mm_div_ps(one, dist_sq);
        const __m128 lx = _mm_mul_ps(_mm_sub_ps(_mm_mul_ps(rpx, leg), _mm_mul_ps(rpy, cr)), dinv);
        const __m128 ly = _mm_mul_ps(_mm_add_ps(_mm_mul_ps(rpx, cr), _mm_mul_ps(rpy, leg)), dinv);
        const __m128 rx =
            _mm_xor_ps(sign, _mm_mul_ps(_mm_add_ps(_mm_mul_ps(rpx, leg), _mm_mul_ps(rpy, cr)), dinv));
        const __m128 ry = _mm_xor_ps(
            sign, _mm_mul_ps(_mm_add_ps(_mm_mul_ps(_mm_xor_ps(sign, rpx), cr), _mm_mul_ps(rpy, leg)), dinv));
        const __m128 gx = select_ps(left, lx, rx), gy = select_ps(left, ly, ry);
        const __m128 dot2 = _mm_add_ps(_mm_mul_ps(rvx, gx), _mm_mul_ps(rvy, gy));
        const __m128 lux = _mm_sub_ps(_mm_mul_ps(dot2, gx), rvx), luy = _mm_sub_ps(_mm_mul_ps(dot2, gy), rvy);
        if (cuts == 0) {
            dx = gx, dy = gy, ux = lux, uy = luy;
        } else {
            dx = select_ps(cut, dx, gx), dy = select_ps(cut, dy, gy);
            ux = select_ps(cut, ux, lux), uy = select_ps(cut, uy, luy);
        }
    }
    if (weighted) { /* rvo__room_share where u is room (agent_lines) */
        const __m128 room = _mm_and_ps(_mm_cmplt_ps(_mm_sub_ps(_mm_mul_ps(dx, uy), _mm_mul_ps(dy, ux)), zero),
                                       _mm_and_ps(_mm_cmpgt_ps(share, zero), _mm_cmplt_ps(share, one)));
        share = select_ps(room, _mm_sub_ps(one, share), share);
    }
    /* the line: direction d, point = velocity + share u */
    __m128 r0 = _mm_add_ps(vx, _mm_mul_ps(share, ux)), r1 = _mm_add_ps(vy, _mm_mul_ps(share, uy)), r2 = dx,
           r3 = dy;
    _MM_TRANSPOSE4_PS(r0, r1, r2, r3); /* lane l: point x, y, direction x, y = one orca_line */
    if ((coll | none) == 0) {
        _mm_storeu_ps(&out[0].point.x, r0);
        if (m > 1)
            _mm_storeu_ps(&out[1].point.x, r1);
        if (m > 2)
            _mm_storeu_ps(&out[2].point.x, r2);
        if (m > 3)
            _mm_storeu_ps(&out[3].point.x, r3);
        return m;
    }
    orca_line r[4];
    _mm_storeu_ps(&r[0].point.x, r0);
    _mm_storeu_ps(&r[1].point.x, r1);
    _mm_storeu_ps(&r[2].point.x, r2);
    _mm_storeu_ps(&r[3].point.x, r3);
    return lines_mixed(c, nb, m, coll, none, r, out);
}

/* 1 / horizon for the lanes j[0..4) of agent c->ai, whose lines can take
 * the oncoming horizon: agent_lines' test per lane (sh: the lanes' shares,
 * NULL: 0.5 each). Out of line: only agents walking with a short horizon
 * come here. */
static RVO_NOINLINE __m128 oncoming_inv_th4(const lines4_ctx *c, const int32_t *j, const float *sh) {
    float t[4];
    for (int32_t l = 0; l < 4; ++l)
        t[l] = rvo__oncoming(c->w, c->ai, j[l], sh ? sh[l] : 0.5f) ? c->inv_oncoming : c->inv_own;
    return _mm_loadu_ps(t);
}

/* keep_right: agent_lines' left_margin can be non-zero (a constant in
 * each of the two copies, agent_lines4_keep and agent_lines4_plain) */
LINES4_INLINE int32_t agent_lines4(const rvo_world *w, int32_t ai, float dt, const neighbor *nb, int32_t nn,
                                   orca_line *lines, const bool keep_right) {
    const float horizon = rvo__lines_horizon(w, ai, nb, nn); /* (first: it may call out of line) */
    const rvo_vec2 position = w->pos[ai], velocity = w->vel[ai];
    lines4_ctx c;
    c.w = w;
    c.ai = ai;
    c.dt = dt;
    c.keep_right = keep_right;
    c.a_aligned = aligned(w->vel[ai], w->pref[ai]);
    c.px = _mm_set1_ps(position.x), c.py = _mm_set1_ps(position.y);
    c.vx = _mm_set1_ps(velocity.x), c.vy = _mm_set1_ps(velocity.y);
    c.rad = _mm_set1_ps(w->prm[ai].radius);
    c.one_radius = w->grid.valid && w->grid.min_radius == w->grid.max_radius && !rvo__no_shortcuts;
    c.cr_all = _mm_set1_ps(w->prm[ai].radius + w->grid.max_radius);
    c.inv_own = 1.0f / rvo__min_time(horizon);
    c.inv_th = _mm_set1_ps(c.inv_own);
    const float oncoming = keep_right ? rvo__oncoming_horizon(w, ai) : 0.0f; /* (keep_right: strict) */
    c.oncoming = oncoming > 0.0f;
    c.inv_oncoming = c.oncoming ? 1.0f / rvo__min_time(oncoming) : c.inv_own;
    if (keep_right) {
        const rvo_vec2 pref = w->pref[ai];
        const float cos_sq = RVO_KEEP_RIGHT_COS * RVO_KEEP_RIGHT_COS;
        c.fx = _mm_set1_ps(pref.x), c.fy = _mm_set1_ps(pref.y);
        c.cv = _mm_set1_ps(cos_sq * v2_abs_sq(velocity)), c.cf = _mm_set1_ps(cos_sq * v2_abs_sq(pref));
        c.f2 = _mm_set1_ps(v2_abs_sq(pref));
    }
    /* the flags, when some agent has one; every lane's when this one has */
    const uint8_t *uneven = w->n_uneven > 0 ? w->uneven : NULL;
    const bool self_uneven = uneven && uneven[ai];
    int32_t nl = 0;
    for (int32_t k = 0; k < nn; k += 4) {
        const int32_t m = nn - k < 4 ? nn - k : 4;
        int32_t j[4];
        if (m == 4) {
            j[0] = nb[k].index, j[1] = nb[k + 1].index, j[2] = nb[k + 2].index, j[3] = nb[k + 3].index;
        } else {
            for (int32_t l = 0; l < 4; ++l)
                j[l] = nb[k + (l < m ? l : 0)].index; /* short block: repeat the first */
        }
        if (!uneven || !(self_uneven || (uneven[j[0]] | uneven[j[1]] | uneven[j[2]] | uneven[j[3]]))) {
            if (c.oncoming) /* (1 / horizon per lane) */
                c.inv_th = oncoming_inv_th4(&c, j, NULL);
            nl += lines_block4(&c, nb + k, j, m, _mm_set1_ps(0.5f), false, 0, lines + nl);
            continue;
        }
        /* line_share for the flagged pairs */
        float sh[4] = {0.5f, 0.5f, 0.5f, 0.5f};
        unsigned none = 0;
        bool weighted = false; /* (a share other than 0, 1/2 and 1) */
        for (int32_t l = 0; l < m; ++l)
            if (self_uneven || uneven[j[l]]) {
                sh[l] = rvo__line_share_flags(w, ai, j[l], uneven[ai], uneven[j[l]]);
                if (sh[l] == 0.0f)
                    none |= 1u << l;
                weighted |= rvo__room_share(sh[l]) != sh[l];
            }
        if (c.oncoming)
            c.inv_th = oncoming_inv_th4(&c, j, sh);
        nl += lines_block4(&c, nb + k, j, m, _mm_loadu_ps(sh), weighted, none, lines + nl);
    }
    return nl;
}

static int32_t agent_lines4_keep(const rvo_world *w, int32_t ai, float dt, const neighbor *nb, int32_t nn,
                                 orca_line *lines) {
    return agent_lines4(w, ai, dt, nb, nn, lines, true);
}

static int32_t agent_lines4_plain(const rvo_world *w, int32_t ai, float dt, const neighbor *nb, int32_t nn,
                                  orca_line *lines) {
    return agent_lines4(w, ai, dt, nb, nn, lines, false);
}
#endif

/* Holding ground (give_way.h, rvo__hold_ground): the line
 * v . pref / |pref| >= -left / dt (back at most left this step; the
 * allowed side is the line's left) into *line; returns the lines added. */
static RVO_NOINLINE int32_t hold_line(const rvo_world *w, int32_t i, float dt, const scratch *s, int32_t nn,
                                      orca_line *line) {
    const float left = rvo__hold_ground(w, i, s->agents, nn);
    if (!(left >= 0.0f))
        return 0;
    const rvo_vec2 pref = w->pref[i];
    const rvo_vec2 unit = v2_scale(1.0f / sqrtf(v2_abs_sq(pref)), pref);
    line->point = v2_scale(-left / rvo__min_time(dt), unit);
    line->direction = v2(unit.y, -unit.x);
    return 1;
}

/* Every ORCA line of agent i into s->lines, obstacle lines first (*num_obst
 * of them); returns the count. The solve and the debug query
 * (debug_lines.c) both build them here, so they cannot differ. */
int32_t rvo__orca_lines(const rvo_world *w, int32_t i, float dt, scratch *s, int32_t *num_obst) {
    const int32_t nobst = w->nverts > 0 ? rvo__obstacle_neighbors(w, i, s) : 0;
    const int32_t nol = nobst > 0 ? obstacle_lines(w, i, s, nobst) : 0;
    const int32_t nn = rvo__agent_neighbors_hinted(w, i, dt, s->agents);
    s->n_agents = nn;
    *num_obst = nol;
    const bool strict = w->strict_overlap && !w->rvo2_compat;
#if defined(RVO_SSE2)
    int32_t nl = nol;
    if (strict && rvo__rests_still(w, i)) /* (rare: a crowd at rest; the anchored pairs) */
        nl += agent_lines(w, i, dt, s->agents, nn, s->lines + nol);
    else
        nl += strict ? agent_lines4_keep(w, i, dt, s->agents, nn, s->lines + nol)
                     : agent_lines4_plain(w, i, dt, s->agents, nn, s->lines + nol);
#else
    int32_t nl = nol + agent_lines(w, i, dt, s->agents, nn, s->lines + nol);
#endif
    if (strict && w->carried[i] > 0.0f) /* (rare: carried back) */
        nl += hold_line(w, i, dt, s, nn, s->lines + nl);
    return nl;
}

/* Strict overlap: the strongest push on agent i from a neighbour that
 * never yields to it (rvo__share 1: weight 0 against i's above 0, locked,
 * or walking through i), touching it (RVO_CONTACT_MARGIN) and closing in,
 * where i wants to go into it: that neighbour's velocity along the line of
 * centres; 0 when none. */
static RVO_NOINLINE rvo_vec2 push_on(const rvo_world *w, int32_t i, const neighbor *nb, int32_t nn,
                                     rvo_vec2 pref) {
    const agent_params *me = &w->prm[i];
    rvo_vec2 best = v2(0.0f, 0.0f);
    float best_sq = 0.0f;
    for (int32_t k = 0; k < nn; ++k) {
        const int32_t b = nb[k].index;
        const agent_params *o = &w->prm[b];
        if (!rvo__in_contact(w, i, b, nb[k].dist_sq) || !(nb[k].dist_sq > 0.0f) || rvo__share(me, o) != 1.0f)
            continue;
        const rvo_vec2 n = v2_scale(1.0f / sqrtf(nb[k].dist_sq), v2_sub(w->pos[i], w->pos[b]));
        const float closing = v2_dot(w->vel[b], n);
        if (closing > 0.0f && v2_dot(pref, n) < 0.0f && closing * closing > best_sq) {
            best_sq = closing * closing;
            best = v2_scale(closing, n);
        }
    }
    return best;
}

/* ORCA's velocity for agent i from its nl lines (nol of obstacles). */
static inline rvo_vec2 solve_lines(orca_line *lines, int32_t nl, int32_t nol, float max_speed, rvo_vec2 pref,
                                   orca_line *proj) {
    rvo_vec2 result;
    const int32_t fail = rvo__lp2(lines, nl, max_speed, pref, false, &result);
    if (fail < nl)
        rvo__lp3(lines, nl, nol, fail, max_speed, &result, proj);
    return result;
}

/* Agent i pushed by such a neighbour: its lines and speed disc move with
 * the push (its own effort counts relative to it) and it aims sideways at
 * full speed, on its preferred velocity's side, else its right. Capped at
 * max speed, the only velocity left to it was the pusher's own: carried
 * back for good (docs/quality.md, 2026-11-27). */
static RVO_NOINLINE rvo_vec2 step_aside(scratch *s, int32_t nl, int32_t nol, rvo_vec2 push, rvo_vec2 pref,
                                        float max_speed) {
    const rvo_vec2 n = v2_scale(1.0f / sqrtf(v2_abs_sq(push)), push), t = v2(-n.y, n.x);
    const float side = v2_dot(pref, t), eps = 1e-3f * max_speed;
    const float sign = side > eps ? 1.0f : side < -eps ? -1.0f : v2_det(pref, t) < 0.0f ? 1.0f : -1.0f;
    for (int32_t k = 0; k < nl; ++k)
        s->lines[k].point = v2_sub(s->lines[k].point, push);
    return v2_add(solve_lines(s->lines, nl, nol, max_speed, v2_scale(sign * max_speed, t), s->proj), push);
}

rvo_vec2 rvo__orca_new_velocity(const rvo_world *w, int32_t i, float dt, scratch *s, rvo_vec2 pref) {
    int32_t nol;
    const int32_t nl = rvo__orca_lines(w, i, dt, s, &nol);
    RVO_ASSERT(nol >= 0 && nol <= nl && nl <= s->lines_cap);
    const float max_speed = w->prm[i].max_speed;
    rvo_vec2 result;
    rvo_vec2 push;
    if (w->n_params > 0 && w->strict_overlap && !w->rvo2_compat && /* (none flagged: nobody pushes) */
        ((push = push_on(w, i, s->agents, s->n_agents, pref)).x != 0.0f || push.y != 0.0f))
        result = step_aside(s, nl, nol, push, pref, max_speed);
    else
        result = solve_lines(s->lines, nl, nol, max_speed, pref, s->proj);
    if (!v2_finite(result))
        result = v2(0.0f, 0.0f); /* last line of defence; see tests */
    return result;
}
