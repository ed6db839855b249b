/* Queries: neighbours as ORCA picks them, agents in a radius, line of sight. */
#include "check.h"
#include "rvo.h"

int main(void) {
    rvo_world_def wd = rvo_default_world_def();
    wd.agent.max_neighbors = 3;
    wd.agent.neighbor_dist = 5;
    rvo_world *w = rvo_world_create(&wd);
    rvo_agent_id ids[8];
    for (int i = 0; i < 8; ++i) ids[i] = rvo_world_add_agent(w, (float)i, 0, NULL);
    rvo_agent_id out[16];
    /* agent 3's nearest: 2 and 4 at distance 1 (ties by id), then 1 or 5 -> 1 (smaller id) */
    CHECK(rvo_world_query_neighbors(w, ids[3], out, 16) == 3);
    CHECK(out[0] == ids[2] && out[1] == ids[4] && out[2] == ids[1]);
    /* neighbor_dist is strict, as in RVO2 */
    rvo_agent_set_param(w, ids[0], RVO_PARAM_NEIGHBOR_DIST, 1.0);
    CHECK(rvo_world_query_neighbors(w, ids[0], out, 16) == 0);
    CHECK(rvo_world_query_neighbors(w, 999, out, 16) == RVO_ERR_UNKNOWN_ID);

    /* radius query: inclusive, nearest first, returns the total */
    CHECK(rvo_world_query_radius(w, 3.2f, 0, 1.2f, out, 16) == 3);
    CHECK(out[0] == ids[3] && out[1] == ids[4] && out[2] == ids[2]);
    CHECK(rvo_world_query_radius(w, 3.5f, 0, 100, out, 2) == 8);
    CHECK(rvo_world_query_radius(w, 100, 100, 1, out, 16) == 0);
    CHECK(rvo_world_query_radius(w, 0, 0, -1, out, 16) < 0);
    /* after moving, queries see the new positions */
    rvo_agent_set_position(w, ids[7], 3.1f, 0.1f);
    CHECK(rvo_world_query_radius(w, 3.2f, 0, 0.2f, out, 16) == 1 && out[0] == ids[7]);

    /* line of sight around a wall */
    const float wall[] = {0, -2, 0, 2};
    rvo_world_add_obstacle(w, wall, 2, false);
    CHECK(rvo_world_line_of_sight(w, -5, 0, 5, 0, 0) == 0);
    CHECK(rvo_world_line_of_sight(w, -5, 3, 5, 3, 0) == 1);
    CHECK(rvo_world_line_of_sight(w, -5, 3, 5, 3, 1.5f) == 0); /* too close with clearance */
    CHECK(rvo_world_line_of_sight(w, -5, 3, 5, 3, 0.5f) == 1);
    CHECK(rvo_world_line_of_sight(w, NAN, 0, 1, 1, 0) < 0);
    CHECK(rvo_world_last_error_arg(w) == 1);
    CHECK(rvo_world_line_of_sight(w, 0, 0, 1, 1, -1) < 0);
    rvo_world_destroy(w);
    return check_finish("queries");
}
