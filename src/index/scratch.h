/* Per-worker scratch for the solve and the queries, and rvo__prepare,
 * which brings the index and the scratch up to date before either runs. */
#ifndef RVO_INDEX_SCRATCH_H
#define RVO_INDEX_SCRATCH_H

#include "world/world.h"

typedef struct orca_line {
    rvo_vec2 point;
    rvo_vec2 direction;
} orca_line;

typedef struct neighbor {
    float dist_sq;
    int32_t index; /* dense agent index or vertex index */
    /* the caller's own per-neighbour value, left unset by the searches
     * (they look ids up only for equal distances): queries.c's radius
     * query keeps the id it sorts by, solver_ue.c whether the contact cone
     * is needed */
    uint64_t mark;
} neighbor;

struct scratch {
    orca_line *lines;
    orca_line *proj;
    int32_t lines_cap;
    neighbor *agents;
    int32_t agents_cap;
    int32_t n_agents; /* rvo__orca_lines: the agent neighbours it found */
    neighbor *obst;
    int32_t obst_cap;
    uint32_t *stamp; /* per edge, for de-duplicating grid hits */
    uint32_t stamp_val;
    int32_t stamp_cap;
    rvo_vec2 *spans; /* solver_ue.c: blocked (lo, hi) per cone and edge */
    int32_t spans_cap;
    float slack;     /* rvo__grid_refile: this worker's largest distance from an agent's cell */
    double moved_sq; /* integrate: the largest squared speed of the agents this worker moved (in a
                        double: a speed below 1e-19 squares to 0 or a denormal in a float) */
    /* separate.c: this worker's free slots of sep_cand for the solve's
     * candidate lists, [cand_next, cand_end) */
    int32_t cand_next, cand_end;
    bool cand_full;      /* an agent's list did not fit */
    int64_t cand_demand; /* the slots this worker's lists took, or would have (2 + n where one did not fit) */
};

bool rvo__scratch_reserve(rvo_world *w);
void rvo__scratch_free(rvo_world *w);
/* Brings the grids and the scratch up to date for solving or querying. */
bool rvo__prepare(rvo_world *w);

#endif
