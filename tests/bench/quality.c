/* Avoidance quality on named scenes: worst overlap (ri + rj - distance, as a
 * fraction of ri + rj, over every step and pair) and makespan (steps until
 * every agent is within its radius of its goal), for the RVO2 mode
 * (rvo2_compat 1) and the default (0). Usage:
 *   quality <circle|random> <n> [rvo2_compat] [max_steps]
 * Prints: scenario,n,rvo2_compat,worst_overlap_pct,makespan_steps,ms_per_step */
#include "scenes.h"

int main(int argc, char **argv) {
    const char *name = argc > 1 ? argv[1] : "circle";
    const int n = argc > 2 ? atoi(argv[2]) : 250;
    const int compat = argc > 3 ? atoi(argv[3]) : 0;
    const int max_steps = argc > 4 ? atoi(argv[4]) : 20000;
    scene s = make(name, n, 1);
    rvo_world_set_rvo2_compat(s.w, compat != 0);
    double worst = 0, ms = 0;
    int steps = 0;
    rvo_agent_id hits[64];
    for (; steps < max_steps; ++steps) {
        if (set_prefs(&s)) break;
        const double t0 = now_ms();
        rvo_world_step(s.w, 0);
        ms += now_ms() - t0;
        const float *p = rvo_world_positions_view(s.w);
        for (int i = 0; i < n; ++i) {
            const int32_t k = rvo_world_query_radius(s.w, p[2 * i], p[2 * i + 1], 3.0f, hits, 64);
            for (int32_t m = 0; m < k && m < 64; ++m) {
                /* ids are 1..n in a world without removals: index = id - 1 */
                const int j = (int)hits[m] - 1;
                if (j <= i) continue;
                const double ov = (3.0 - hypot((double)p[2 * i] - p[2 * j], (double)p[2 * i + 1] - p[2 * j + 1])) / 3.0;
                if (ov > worst) worst = ov;
            }
        }
    }
    printf("%s,%d,%d,%.3f,%d,%.3f\n", name, n, compat, 100.0 * worst, steps < max_steps ? steps : -1,
           steps ? ms / steps : 0.0);
    free_scene(&s);
    return 0;
}
