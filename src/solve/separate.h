/* Overlap resolution after integrate (separate.c). */
#ifndef RVO_SOLVE_SEPARATE_H
#define RVO_SOLVE_SEPARATE_H

#include "world/world.h"

/* Overlap resolution (separate.c): the soft default runs a fixed number of
 * passes; strict overlap (with keep-right in orca.c) stops once no pair
 * overlaps by more than the tolerance (a fraction of the radius sum) or at
 * the cap, each pass projecting by the over-relaxation factor. Measured in
 * tests/bench/quality.c (docs/quality.md). */
#define RVO_SEPARATION_SOFT_PASSES 4
#ifndef RVO_SEPARATION_MAX_PASSES /* -D to tune */
#define RVO_SEPARATION_MAX_PASSES 64
#endif
/* Rounds of passes, each from lists made afresh, when the passes moved an
 * agent far enough to meet one outside its list (separate.c). */
#ifndef RVO_SEPARATION_ROUNDS /* -D to tune */
#define RVO_SEPARATION_ROUNDS 4
#endif
/* From this strict pass on, a pair with a locked or weight-0 agent splits
 * its overlap evenly: an agent pinched between two that stay put against it
 * (weight 0, or locked and not pressing) still overlaps after the passes
 * that resolve a contact (a light unit crushed between heavies). */
#ifndef RVO_PINCH_PASS /* -D to tune */
#define RVO_PINCH_PASS 8
#endif
#ifndef RVO_SEPARATION_TOLERANCE /* -D to tune */
#define RVO_SEPARATION_TOLERANCE 0.002f
#endif
#ifndef RVO_SEPARATION_RELAX /* -D to tune */
#define RVO_SEPARATION_RELAX 1.5f
#endif
/* separate.c: pushes overlapping agents apart after an integrate of dt;
 * RVO_ERR_OUT_OF_MEMORY, or RVO_ERR_INVALID_ARGUMENT when a task hook did
 * not run every agent once. *gridded: it left w->grid filed with the
 * current agents (for rvo__grid_refile). */
rvo_status rvo__separate(rvo_world *w, float dt, bool *gridded);
/* The strict passes' candidates from the ORCA solve's neighbour lists
 * (separate.c): rvo__solve_cand_begin before the solve's loop, on the
 * calling thread (dt: the solve's); when it set w->solve_cand_ok,
 * rvo__solve_cand_range at the start of each range of agents [begin, end)
 * (grid slots), and rvo__solve_cand_keep for each agent once it is solved,
 * with the worker's scratch (listed: its neighbour list is in s->agents,
 * from the ORCA solve). */
void rvo__solve_cand_begin(rvo_world *w, float dt);
void rvo__solve_cand_range(const rvo_world *w, scratch *s, int32_t begin, int32_t end);
void rvo__solve_cand_keep(rvo_world *w, scratch *s, int32_t i, bool listed);
/* tests: the strict passes look at every pair and push every agent out in
 * every pass (the plain Gauss-Seidel their skipping must match bit for bit).
 * Process-wide; set it only while no world steps. */
extern bool rvo__separate_reference;
/* The first edge of a moving obstacle that an agent (vertical extent z,
 * height) stepping from a0 to a1 entered from its free side, seen in the
 * obstacle's frame over dt (dt 0: where the obstacles are now), searching
 * reach beyond the step's box (any: the edges of standing obstacles too);
 * -1 if none, else the edge and in *t where along the step. */
int32_t rvo__moving_edge_crossed(const rvo_world *w, scratch *s, rvo_vec2 a0, rvo_vec2 a1, float dt, float z,
                                 float height, float reach, bool any, float *t);

#endif
