/* Who gives way and how a pair splits the avoidance: the one place that
 * decides it, read by every solver (orca.c, solver_ue.c,
 * solver_sampling.c), the overlap passes (separate.c) and the debug view.
 * The flags of w->uneven cache its per-agent tests; give_way.c computes
 * them. */
#ifndef RVO_SOLVE_GIVE_WAY_H
#define RVO_SOLVE_GIVE_WAY_H

#include "index/grid.h"
#include "world/world.h"

/* Giving way (strict overlap): an agent is idle while its
 * preferred speed is at most RVO_IDLE_SPEED of its max speed (rvo__idle,
 * world/world.h); the agent
 * that gives way takes the whole ORCA correction and RVO_GIVE_WAY_SHARE of
 * an overlap (not all of it: an agent pinched between two others must be
 * able to push back, or the projection cannot converge). */
#ifndef RVO_GIVE_WAY_SHARE /* -D to tune */
#define RVO_GIVE_WAY_SHARE 0.9f
#endif
/* An agent stalled this many times the world's stall threshold gets way
 * from moving agents that want the opposite way (one carried off by a
 * stream it cannot leave, measured in circles of 2500 and more). */
#ifndef RVO_LONG_STALL /* -D to tune */
#define RVO_LONG_STALL 10.0f
#endif

/* Agent me's share of the velocity change asked of a pair (me, other) that
 * me avoids: 1 if other is locked or does not avoid me, otherwise
 * w_me / (w_me + w_other), 0.5 for equal weights (both 0 included). */
static inline float rvo__share(const agent_params *me, const agent_params *other) {
    if (other->locked || !(other->mask & me->groups))
        return 1.0f;
    if (me->weight == other->weight)
        return 0.5f;
    return me->weight / (me->weight + other->weight);
}

/* A unit direction for two agents at the same spot: opposite for the two,
 * varied across pairs so that a stack of agents spreads out. */
static inline rvo_vec2 rvo__split_direction(rvo_agent_id self, rvo_agent_id other) {
    const uint64_t lo = self < other ? self : other, hi = self < other ? other : self;
    uint64_t h = lo * 0x9E3779B97F4A7C15ull ^ (hi + 0x7F4A7C159E3779B9ull);
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 32;
    const float angle = (float)(h & 0xffff) * (6.2831853f / 65536.0f);
    const float s = self < other ? 1.0f : -1.0f;
    return v2(s * cosf(angle), s * sinf(angle));
}

/* The flags of w->uneven: rvo__share's and rvo__gives_way's tests, each
 * with the same operands. */
#define RVO_UNEVEN_PARAMS 1u  /* locked, a weight other than agent 0's, a mask or groups that can filter */
#define RVO_UNEVEN_IDLE 2u    /* strict overlap: idle */
#define RVO_UNEVEN_STALLED 4u /* strict overlap: stalled */
#define RVO_UNEVEN_LONG 8u    /* strict overlap: stalled, RVO_LONG_STALL times the threshold */
/* Strict overlap, idle or stalled agents only: no room to give way in
 * Touching means nearer than RVO_CONTACT_MARGIN times the
 * radius sum, an agent it avoids, on its floor. */
#define RVO_UNEVEN_HEMMED_IDLE 16u /* an idle agent: touches an idle agent, or two agents */
#define RVO_UNEVEN_HEMMED 32u      /* touches three agents or more */
/* The same bit on a stalled agent, never idle, in the solve's flags: it has
 * gathered where it aims (rvo__gathered). The hemmed test of idle agents is
 * read on idle agents only, so one byte holds both: the test, made once
 * per agent instead of for every pair of its lines, costs no memory. */
#define RVO_UNEVEN_GATHERED RVO_UNEVEN_HEMMED_IDLE
/* Strict overlap, stalled agents only: it presses into a crowd at rest (an
 * idle agent hemmed in, or one that rests already) that it touches within
 * acos(RVO_REST_AHEAD_COS) of its preferred velocity, so it rests too: the
 * solve aims it at zero instead of its preferred velocity. Pressing on
 * only slid it along the crowd for good (a group sent to a point too small
 * for it never came to rest); wider cones kept surround units from
 * squeezing between holders (docs/quality.md). Not when it can walk round
 * that agent: a spot beside it across the preferred velocity, and the
 * spot past that one, free of bodies (nearer than RVO_SIDE_FREE radius
 * sums). A crowd fills them; the rim of parked agents that the last
 * agents of a circle walk along does not, and they rested there for good. */
#define RVO_UNEVEN_RESTS 64u
/* Strict overlap, agents stalled RVO_LONG_STALL times the threshold: it
 * touches two agents or more and none of them wants to go against its
 * way, a crowd pressing one way that will not make way. Unless it rests
 * (RVO_UNEVEN_RESTS wins), the solve aims it at its preferred velocity
 * scaled by rvo__tired_scale: the longer it stalls, the less it presses.
 * Pressing at full strength into a crowd that does not rest yet (a group
 * sent to a point far too small for it) kept the whole crowd turning
 * slowly for good; a jam of agents that want opposite ways still clears by
 * pushing (docs/quality.md). Also, whatever the ways of the agents it
 * touches, in a crowd that has come near where all of them aim (a group
 * sent to slots too few for it; give_way.c, crowd_near in
 * rvo__update_shares: gathered, or with idle ones counting, among
 * RVO_SETTLED_CONTACTS or pressing on at more than RVO_SETTLED_SPEED of its
 * max speed): there it settles on its tired aim (rvo__settles) and rests. */
#define RVO_UNEVEN_TIRED 128u
#ifndef RVO_TIRED_MIN /* -D to tune */
#define RVO_TIRED_MIN 0.1f
#endif
#ifndef RVO_REST_AHEAD_COS /* -D to tune */
#define RVO_REST_AHEAD_COS 0.85f
#endif
#ifndef RVO_REST_SAME_COS /* -D to tune */
#define RVO_REST_SAME_COS 0.97f
#endif
#ifndef RVO_SIDE_FREE /* -D to tune */
#define RVO_SIDE_FREE 0.9f
#endif
/* A stalled agent that stands still (at most RVO_REST_STILL of its max
 * speed) after RVO_LONG_STALL times the threshold keeps resting on a crowd
 * at rest within acos(RVO_REST_KEEP_COS) of its way (presses_on_rest). */
#ifndef RVO_REST_STILL /* -D to tune */
#define RVO_REST_STILL 0.05f
#endif
#ifndef RVO_REST_KEEP_COS /* -D to tune */
#define RVO_REST_KEEP_COS 0.7f
#endif
#define RVO_REST_PASSES 16 /* a resting crowd grows this many agents deep per step at most */
#ifndef RVO_CONTACT_MARGIN /* -D to tune */
#define RVO_CONTACT_MARGIN 1.1f
#endif
/* Do agents i and j, dist_sq apart, touch: nearer than RVO_CONTACT_MARGIN
 * times their radius sum? */
static inline bool rvo__in_contact(const rvo_world *w, int32_t i, int32_t j, float dist_sq) {
    const float touch = RVO_CONTACT_MARGIN * (w->prm[i].radius + w->prm[j].radius);
    return dist_sq < touch * touch;
}

/* Settled (strict overlap): a stalled agent, not idle, that wants to walk
 * at most RVO_SETTLED_SPEED of its max speed and touches
 * RVO_SETTLED_CONTACTS agents or more has come as near to where it wants
 * to be as the crowd lets it: it rests (RVO_UNEVEN_RESTS), and agents
 * stalled pressing into it rest in turn. A script that steers with the
 * offset to a slot as the preferred velocity (the README's quick start)
 * slows its agents near their slots but never makes them idle, so a group
 * sent to a place too small for it found no crowd at rest and churned for
 * good: 25 of 40 rally runs missed the done-when. With three contacts, a
 * crowd re-forming behind a pillar rested short of its goals for good, and
 * units pressing on the surround's ring of holders rested outside the band
 * (docs/quality.md, stop 41). A long-stalled agent that has gathered
 * (below) settles on its tired aim among two contacts or more. */
#ifndef RVO_SETTLED_SPEED /* -D to tune */
#define RVO_SETTLED_SPEED 0.5f
#endif
#ifndef RVO_SETTLED_CONTACTS /* -D to tune */
#define RVO_SETTLED_CONTACTS 4
#endif
/* Gathered (give_way.c): agent i, not idle, is near where it aims (a
 * streak of RVO_AIM_NEAR_STEPS measures, world/aim.c), another body stands
 * where it aims, it touches RVO_GATHERED_CONTACTS agents or more, every
 * one of them walking (not idle: a crowd with an arrival radius rests as
 * it is) and near where it aims too, and no obstacle is within
 * RVO_AIM_WALL_RADII radii of it. A group sent to slots too few
 * for it gathers so; a jam of agents bound for far goals, a crowd with a
 * free slot behind it, or a queue at a door (every unit steered at the
 * same waypoint in it: resting froze it, docs/quality.md, stop 46) does
 * not. */
#ifndef RVO_GATHERED_CONTACTS /* -D to tune */
#define RVO_GATHERED_CONTACTS 2
#endif
#ifndef RVO_AIM_WALL_RADII /* -D to tune */
#define RVO_AIM_WALL_RADII 8.0f
#endif
bool rvo__gathered(const rvo_world *w, int32_t i);
/* Do agents i and j aim at points (world/aim.c, both measured) more than
 * RVO_AIMS_APART of their radius sum apart: slots of their own, not one
 * rally point? */
#ifndef RVO_AIMS_APART /* -D to tune */
#define RVO_AIMS_APART 0.25f
#endif
bool rvo__aims_apart(const rvo_world *w, int32_t i, int32_t j);
/* Does an agent of parameters a with preferred velocity pref want at most
 * RVO_SETTLED_SPEED of its max speed (settling, rvo__lines_horizon; more:
 * it presses on, rvo__update_shares)? */
static inline bool rvo__wants_slow(rvo_vec2 pref, const agent_params *a) {
    const float slow = RVO_SETTLED_SPEED * a->max_speed;
    return v2_abs_sq(pref) <= slow * slow;
}
/* Agent i's settled test but for its contacts (u: its flags), on its
 * preferred velocity times scale (1, or its tired share in a crowd near
 * where it aims: give_way.c, crowd_near in rvo__update_shares). */
static inline bool rvo__settles(const rvo_world *w, int32_t i, unsigned u, float scale) {
    const float slow = RVO_SETTLED_SPEED * w->prm[i].max_speed;
    return (u & (RVO_UNEVEN_STALLED | RVO_UNEVEN_IDLE)) == RVO_UNEVEN_STALLED &&
           scale * scale * v2_abs_sq(w->pref[i]) <= slow * slow;
}

/* A tired agent's share of its preferred speed: RVO_LONG_STALL times the
 * threshold over its stall time, at least RVO_TIRED_MIN. */
static inline float rvo__tired_scale(const rvo_world *w, int32_t i) {
    const float k = RVO_LONG_STALL * w->stall_min_time / w->stall[i];
    return k < RVO_TIRED_MIN ? RVO_TIRED_MIN : k > 1.0f ? 1.0f : k;
}

/* Does agent i rest (RVO_UNEVEN_RESTS, set by rvo__update_shares)? */
static inline bool rvo__rests(const rvo_world *w, int32_t i) {
    return w->n_uneven > 0 && (w->uneven[i] & RVO_UNEVEN_RESTS); /* (the common case: one test) */
}

/* The velocity the ORCA solve aims agent i at, from `pref`, the preferred
 * velocity it would walk (after any obstacle detour, which a resting agent
 * skips): zero while it rests (rvo__rests), the tired share of it while it
 * is tired (RVO_UNEVEN_TIRED), else pref. */
static inline rvo_vec2 rvo__aim(const rvo_world *w, int32_t i, rvo_vec2 pref) {
    if (rvo__rests(w, i))
        return v2(0.0f, 0.0f);
    if (w->n_uneven > 0 && (w->uneven[i] & RVO_UNEVEN_TIRED))
        return v2_scale(rvo__tired_scale(w, i), pref);
    return pref;
}

/* Sets equal_shares and the flags of w->uneven from the current positions,
 * preferred velocities and stall times (the grid must be valid); the solve
 * calls it before ORCA lines are built, the strict overlap passes before
 * they start. aims: also RVO_UNEVEN_RESTS and RVO_UNEVEN_TIRED, which only
 * the solve and the debug lines read (its aim, rvo__anchored; the overlap
 * passes skip them). False when out of memory. */
bool rvo__update_shares(rvo_world *w, bool aims);

/* Giving way's two per-agent tests (rvo__gives_way, and the flags of
 * rvo__update_shares, which must match it): idle (rvo__idle); stalled, a
 * stall time s at the world's threshold t (& rather than &&: no branch in
 * the flag loop). */
static inline bool rvo__stalled(float s, float t) { return (s > 0.0f) & (s >= t); }

/* The rules before the hemmed test (rvo__gives_way); *idle_rule: the
 * answer comes from the idle rule (one of the two is idle). */
static inline int gives_way_rules(const rvo_world *w, int32_t i, int32_t j, bool *idle_rule) {
    const agent_params *a = &w->prm[i], *b = &w->prm[j];
    if (a->locked || b->locked || !(a->mask & b->groups) || !(b->mask & a->groups))
        return 0;
    if (!(a->weight > 0.0f && b->weight > 0.0f))
        return 0;
    const rvo_vec2 pa = w->pref[i], pb = w->pref[j];
    const bool idle_a = rvo__idle(pa, a), idle_b = rvo__idle(pb, b);
    *idle_rule = idle_a != idle_b;
    if (idle_a != idle_b) {
        if (idle_a)
            return a->weight >= b->weight ? 1 : 0;
        return b->weight >= a->weight ? -1 : 0;
    }
    const float t = w->stall_min_time, t_long = RVO_LONG_STALL * t;
    const float sa = w->stall[i];
    const bool stalled_a = rvo__stalled(sa, t);
    if (!(v2_dot(pa, pb) < 0.0f)) {
        /* not opposite ways: only two stalled agents that each want to go
         * where the other stands (a symmetric jam: a ring of agents
         * swapping sides, a four-way cross), not a queue */
        if (!stalled_a || !rvo__stalled(w->stall[j], t))
            return 0;
        const rvo_vec2 rel = v2_sub(w->pos[j], w->pos[i]);
        if (!(v2_dot(pa, rel) > 0.0f && v2_dot(pb, rel) < 0.0f))
            return 0;
    }
    const float sb = w->stall[j];
    const bool stalled_b = rvo__stalled(sb, t);
    if (stalled_a != stalled_b) {
        if (stalled_b && sb >= t_long)
            return a->weight >= b->weight ? 1 : 0;
        if (stalled_a && sa >= t_long)
            return b->weight >= a->weight ? -1 : 0;
        return 0;
    }
    if (stalled_a) {
        if (rvo__gathered(w, i) && rvo__gathered(w, j) && rvo__aims_apart(w, i, j))
            return 0;
        if (a->weight != b->weight)
            return a->weight > b->weight ? 1 : -1;
        const rvo_agent_id lo = w->ids[i] < w->ids[j] ? w->ids[i] : w->ids[j];
        const rvo_agent_id hi = w->ids[i] < w->ids[j] ? w->ids[j] : w->ids[i];
        uint64_t h = lo * 0x9E3779B97F4A7C15ull ^ (hi + 0x632BE59BD9B4E019ull);
        h ^= h >> 31;
        h *= 0xBF58476D1CE4E5B9ull;
        h ^= h >> 29;
        const bool lo_gives = (h & 1u) != 0;
        return lo_gives == (w->ids[i] == lo) ? 1 : -1;
    }
    return 0;
}

/* Is agent y, which the rules ask to give way, hemmed in (it would only
 * shove the agents around it)? idle_rule: it gives way as the idle one. */
static inline bool rvo__hemmed(const rvo_world *w, int32_t y, bool idle_rule) {
    return (w->uneven[y] & (idle_rule ? RVO_UNEVEN_HEMMED_IDLE : RVO_UNEVEN_HEMMED)) != 0;
}

/* Strict overlap: does agent i give way to j outright (1), j to i (-1), or
 * neither (0, shares by weight)? Only between two unlocked agents that
 * avoid each other, both with a weight above 0 (weight 0 never yields):
 *   - moving agents push idle ones: an idle agent gives way to a moving one
 *     whose weight is not above its own (a lower weight protects it);
 *   - jams break, between two agents that want opposite ways (preferred
 *     velocities more than 90 degrees apart) or, both stalled, that each
 *     want to go where the other stands (a ring of agents swapping sides):
 *     of two stalled ones (rvo_world_stalled) the one with the higher
 *     weight gives way, at equal weights a bit of a hash of the two ids
 *     decides; an agent stalled for RVO_LONG_STALL times the threshold gets
 *     way from one that wants the opposite way and is not stalled (of no
 *     greater weight); but of two stalled ones that have both gathered
 *     where they aim (rvo__gathered) and aim at points apart (their
 *     slots: rvo__aims_apart), neither. In a group sent to slots too few
 *     for it, the one given way walked into its slot by shoving the
 *     other, which walked back in, and the crowd churned for good (a
 *     block sent without an arrival radius to slots 0.9 m apart, bodies 1
 *     m wide, its starts moved by up to 5 cm: 16 of 16 draws). A crowd
 *     pressing to one rally point still takes turns: without them it
 *     turned round the point for good (docs/quality.md, stop 48);
 *   - but a hemmed-in agent gives way to nobody: an idle one
 *     that touches another idle one or two agents, a jam's loser that
 *     touches three. Giving way there only shoved the crowd around it, so
 *     a group sent to a point too small for it churned for good, each
 *     agent pushed off its spot walking back in and pushing the next.
 * Symmetric: rvo__gives_way(w, j, i) == -rvo__gives_way(w, i, j). Reads the
 * preferred velocities, parameters, stall times and flags (w->uneven, set
 * by rvo__update_shares), and for two stalled agents their positions (the
 * same for both calls of a pair; it matters only between two weights above
 * 0, where rvo__share alone already decides whether a pair moves). */
static inline int rvo__gives_way(const rvo_world *w, int32_t i, int32_t j) {
    if (!w->strict_overlap || w->rvo2_compat)
        return 0;
    bool idle_rule = false;
    const int g = gives_way_rules(w, i, j, &idle_rule);
    if (g == 0)
        return 0;
    return rvo__hemmed(w, g > 0 ? i : j, idle_rule) ? 0 : g;
}

/* Holding ground (strict overlap): agent i, carried back more than
 * RVO_HOLD_AFTER of its radius along its preferred velocity (w->carried),
 * with a neighbour ahead (within RVO_HOLD_REACH radius sums) that wants
 * the opposite way, walks where it wants (at RVO_HOLD_FREE of its
 * preferred speed or more) and avoids it, goes back no further than
 * RVO_HOLD_AT of its radius in all. Returns how much further [m], -1 when
 * the rule does not hold. A unit met by a stream walking freely was
 * escorted back for metres (relative velocity 0: nobody saw a collision
 * coming); stopped, it is a unit the stream goes round. In a jam the
 * pushers are slowed too, and backing up still clears it. */
#ifndef RVO_HOLD_AFTER /* -D to tune */
#define RVO_HOLD_AFTER 0.4f
#endif
#ifndef RVO_HOLD_AT /* -D to tune */
#define RVO_HOLD_AT 0.8f
#endif
#ifndef RVO_HOLD_FREE /* -D to tune */
#define RVO_HOLD_FREE 0.9f
#endif
#define RVO_HOLD_REACH 3.0f
static inline float rvo__hold_ground(const rvo_world *w, int32_t i, const neighbor *nb, int32_t nn) {
    const agent_params *me = &w->prm[i];
    const float carried = w->carried[i];
    const rvo_vec2 pref = w->pref[i], pos = w->pos[i];
    if (!(carried > RVO_HOLD_AFTER * me->radius) || rvo__idle(pref, me)) /* (idle: set since the move) */
        return -1.0f;
    for (int32_t k = 0; k < nn; ++k) {
        const int32_t b = nb[k].index;
        const agent_params *o = &w->prm[b];
        const float reach = RVO_HOLD_REACH * (me->radius + o->radius);
        const rvo_vec2 pb = w->pref[b];
        if (nb[k].dist_sq < reach * reach && v2_dot(v2_sub(w->pos[b], pos), pref) > 0.0f &&
            v2_dot(pb, pref) < 0.0f && v2_dot(w->vel[b], pb) >= RVO_HOLD_FREE * v2_abs_sq(pb) && !o->locked &&
            o->weight > 0.0f && (o->mask & me->groups)) {
            const float left = RVO_HOLD_AT * me->radius - carried;
            return left > 0.0f ? left : 0.0f;
        }
    }
    return -1.0f;
}

/* The horizon [s] of agent i's ORCA lines against other agents: its
 * time_horizon, but with strict overlap
 *   - at most RVO_IDLE_HORIZON while it is idle. An idle agent gives way
 *     to one that walks at it; looking 10 s ahead (RVO2's examples), it
 *     made way for pressers still metres off, left its arrival radius,
 *     walked back and pushed the next;
 *   - at most the time it takes to walk RVO_STALLED_HORIZON_WIDTHS body
 *     widths at its max speed while it is stalled. With a horizon that
 *     walks 40-80 radii, stalled agents pressing into the crowd pushed
 *     back at neighbours a body or two off that closed in by centimetres
 *     a second, and the whole crowd sloshed to and fro for good. A cap of
 *     2-5 s cost the dense crossing 3-14%; one in body widths leaves
 *     RVO2's own settings alone (its circle: 10.5 s against 10);
 *   - at most RVO_IDLE_HORIZON while it settles (settling, give_way.c): it wants
 *     at most RVO_SETTLED_SPEED of its max speed, and so does the nearest
 *     agent it avoids, which it touches. A crowd slowing down to its slots
 *     (the README's recipe: the offset to the slot) closes a gap at about
 *     the gap over the horizon a second; at 5-10 s it stayed loose, too
 *     few of its agents touched four others to settle, and it more often
 *     churned for good (docs/quality.md, stop 47);
 *   - once the stalled cap bites, at most RVO_IDLE_HORIZON while it is
 *     stalled near where it aims among agents near where they aim too
 *     (near_aim_in_crowd, give_way.c): a group sent to slots too few for it.
 *     Looking 7 widths ahead, such a crowd also stayed loose and churned
 *     (two squads side by side without an arrival radius: 7 and 9 of 10
 *     draws at 5 and 10 s). Where the horizon walks fewer widths (RVO2's
 *     settings) it stays off: the random crossing's jams near their goals
 *     lost 1.5% of their arrivals to it.
 * A group sent to a point too small for it churned for good at horizons
 * of 5-10 s without them (docs/quality.md, stops 37 and 38). nb, nn: agent
 * i's neighbours, nearest first. */
#ifndef RVO_IDLE_HORIZON /* -D to tune */
#define RVO_IDLE_HORIZON 2.0f
#endif
#ifndef RVO_STALLED_HORIZON_WIDTHS /* -D to tune */
#define RVO_STALLED_HORIZON_WIDTHS 7.0f
#endif
/* rvo__lines_horizon's caps (give_way.c, out of line: most agents walk at
 * more than half their max speed, neither idle nor stalled, and take
 * their time_horizon as it is). */
float rvo__capped_horizon(const rvo_world *w, int32_t i, const neighbor *nb, int32_t nn);
static inline float rvo__lines_horizon(const rvo_world *w, int32_t i, const neighbor *nb, int32_t nn) {
    /* (the idle and stalled flags: strict overlap only, rvo__update_shares) */
    const unsigned u = w->n_uneven > 0 ? w->uneven[i] : 0u;
    const agent_params *a = &w->prm[i];
    /* (rvo__wants_slow written out: called here, it cost agent_lines4_keep
     * 8 instructions an agent-step on circle 1k) */
    const float slow = RVO_SETTLED_SPEED * a->max_speed;
    if (!(u & (RVO_UNEVEN_IDLE | RVO_UNEVEN_STALLED)) && !(v2_abs_sq(w->pref[i]) <= slow * slow))
        return a->time_horizon;
    return rvo__capped_horizon(w, i, nb, nn);
}

/* The oncoming horizon (strict overlap): agent i's lines against an
 * oncoming agent (rvo__oncoming) look at least as far ahead as it takes to
 * walk RVO_ONCOMING_HORIZON_WIDTHS body widths at its max speed. With a
 * horizon that walks one to four radii, two crowds walking at each other
 * saw each other only once they nearly touched, met in a jam and pushed
 * one another back along their way; seen from six widths off, they step
 * aside in time and pass. It bites only where the horizon walks fewer than
 * 12 radii (RVO2's own settings: 9 s against 10). Returns that horizon [s]
 * when it is longer than agent i's own and i walks (rvo__walks_on); else
 * 0. */
#ifndef RVO_ONCOMING_HORIZON_WIDTHS /* -D to tune */
#define RVO_ONCOMING_HORIZON_WIDTHS 6.0f
#endif
/* (not idle, and not stalled at all: in a jam the stalled horizon acts) */
static inline bool rvo__walks_on(const rvo_world *w, int32_t i) {
    return !(w->stall[i] > 0.0f) && !rvo__idle(w->pref[i], &w->prm[i]);
}
static inline float rvo__oncoming_horizon(const rvo_world *w, int32_t i) {
    const agent_params *a = &w->prm[i];
    /* (a walking agent is neither idle nor stalled, so rvo__lines_horizon is
     * its time_horizon; the test that fails at RVO2's settings first) */
    const float walk = RVO_ONCOMING_HORIZON_WIDTHS * 2.0f * a->radius / a->max_speed;
    if (!(walk > a->time_horizon) || !(a->max_speed > 0.0f) || !w->strict_overlap || w->rvo2_compat ||
        !rvo__walks_on(w, i))
        return 0.0f;
    return walk;
}

/* Is agent j oncoming for agent i (whose lines may take the oncoming
 * horizon): j walks too, the two want opposite ways, each stands ahead of
 * the other along its way, walking their ways they would touch (not two
 * lanes passing each other: door lanes slowed), they close in, they are
 * more than two radius sums apart (in close quarters the agents' own
 * horizon rules) and they share the avoidance evenly (share: i's share of
 * the pair; not against a unit of another weight, a lock or one that gives
 * way). Symmetric in i and j. */
static inline bool rvo__oncoming(const rvo_world *w, int32_t i, int32_t j, float share) {
    const rvo_vec2 pi = w->pref[i], pj = w->pref[j], rel = v2_sub(w->pos[j], w->pos[i]);
    const rvo_vec2 pr = v2_sub(pi, pj); /* (walking their ways, j would pass within sum of i) */
    const float sum = w->prm[i].radius + w->prm[j].radius, far = 2.0f * sum;
    return share == 0.5f && w->prm[i].weight > 0.0f && v2_dot(pi, pj) < 0.0f && v2_dot(pi, rel) > 0.0f &&
           v2_dot(pj, rel) < 0.0f && v2_dot(v2_sub(w->vel[i], w->vel[j]), rel) > 0.0f &&
           v2_abs_sq(rel) > far * far && rvo__walks_on(w, j) &&
           v2_det(rel, pr) * v2_det(rel, pr) < sum * sum * v2_abs_sq(pr);
}

/* Resting at a standstill (strict overlap): agent i rests
 * (RVO_UNEVEN_RESTS, set by the solve's rvo__update_shares) and stands
 * still, at most RVO_ANCHOR_STILL of its max speed. Two such agents that
 * touch (rvo__anchored) build their lines against each other as if both
 * stood still. ORCA's line for a pair passes through each agent's own
 * velocity, so a cluster in contact kept whatever drift it had (neither may
 * close in faster than it does now): a crowd at rest crept on at a few cm/s
 * and, a minute or more later, stirred again (the rally scenes at 60 steps
 * a second; docs/quality.md, stop 40). Both at rest and still: a parked
 * agent that a traveller presses on is idle, not resting, and a crowd
 * that still slides lets travellers by (anchoring those, or agents up to
 * 5% of their max speed, cost the random crossing 1-4% of its arrivals). */
#ifndef RVO_ANCHOR_STILL /* -D to tune */
#define RVO_ANCHOR_STILL 0.02f
#endif
static inline bool rvo__rests_still(const rvo_world *w, int32_t i) {
    if (!rvo__rests(w, i))
        return false;
    const float still = RVO_ANCHOR_STILL * w->prm[i].max_speed;
    return v2_abs_sq(w->vel[i]) <= still * still;
}
/* For agent i, which rests still (rvo__rests_still): does it touch agent j
 * (dist_sq apart), which rests still too? */
static inline bool rvo__anchored(const rvo_world *w, int32_t i, int32_t j, float dist_sq) {
    return rvo__in_contact(w, i, j, dist_sq) && rvo__rests_still(w, j);
}

/* Agent ai's share of the pair's ORCA correction (RVO2: 0.5); strict
 * overlap: all of it when it gives way, none when the other does. */
static inline float rvo__line_share(const rvo_world *w, int32_t ai, int32_t bi) {
    if (w->equal_shares)
        return 0.5f;
    const int gives = rvo__gives_way(w, ai, bi);
    RVO_ASSERT(gives == -rvo__gives_way(w, bi, ai)); /* symmetric */
    return gives > 0 ? 1.0f : gives < 0 ? 0.0f : rvo__share(&w->prm[ai], &w->prm[bi]);
}

/* Agent ai's share of the room a pair has left when it is not on a course
 * to collide (the line lies beyond its velocity): the other's share. A
 * share is how much of a correction an agent takes; the one that takes
 * less of the avoidance gets more of the room to walk on. Split like a
 * correction, the room went mostly to the agent that avoids more, so a
 * pair that started far apart slowed the agent that avoids less first, and
 * at horizons of 3 s and more that one then took all the sideways effort
 * (docs/quality.md, stop 40). The two shares still add up to 1, so the
 * pair stays safe. Shares 0, 1/2 and 1 keep theirs (0 has no line, 1
 * avoids one that does not avoid it). */
static inline float rvo__room_share(float share) {
    return share > 0.0f && share < 1.0f ? 1.0f - share : share;
}

/* rvo__line_share from the flags ua, ub of the pair (w->uneven, not both
 * 0), rvo__gives_way's steps for two agents of the common weight, above 0,
 * unlocked and unfiltered: an idle one gives way to a moving one unless
 * hemmed in; else, of two stalled ones (rare) rvo__gives_way decides; of
 * one stalled that wants the opposite way, a long-stalled one gets way
 * unless the other is hemmed in; else neither gives way. */
static inline float rvo__line_share_flags(const rvo_world *w, int32_t ai, int32_t bi, unsigned ua,
                                          unsigned ub) {
    if ((ua | ub) & RVO_UNEVEN_PARAMS || !(w->prm[ai].weight > 0.0f))
        return rvo__line_share(w, ai, bi);
    if ((ua ^ ub) & RVO_UNEVEN_IDLE) {
        if ((ua & RVO_UNEVEN_IDLE ? ua : ub) & RVO_UNEVEN_HEMMED_IDLE)
            return 0.5f;
        return ua & RVO_UNEVEN_IDLE ? 1.0f : 0.0f;
    }
    if (!((ua | ub) & RVO_UNEVEN_STALLED))
        return 0.5f;
    if (ua & ub & RVO_UNEVEN_STALLED)
        return rvo__line_share(w, ai, bi); /* (also when not opposite: a ring jam) */
    if (!(v2_dot(w->pref[ai], w->pref[bi]) < 0.0f))
        return 0.5f;
    if (ub & RVO_UNEVEN_LONG)
        return ua & RVO_UNEVEN_HEMMED ? 0.5f : 1.0f; /* (b is the stalled one) */
    if (ua & RVO_UNEVEN_LONG)
        return ub & RVO_UNEVEN_HEMMED ? 0.5f : 0.0f;
    return 0.5f;
}

#endif
