/* Timing of the named scenes of scenes.h (Box2D style): prints
 * scenario,n,threads,ms/step,us/agent-step,solver,mode.
 * Usage: bench [scenario [n [threads [warm [steps [solver [mode]]]]]]]; with a
 * solver name (orca, ue, rvo) it is selected and appended to the line.
 * mode: "default" (overlap resolution on), "plain" (rvo2_compat: exactly
 * RVO2's work) or "features" (rvo2_compat, with weights 0.3..0.7, a group
 * mask and finite heights on every agent, so every game check runs). */
#include "scenes.h"

int main(int argc, char **argv) {
    const char *name = argc > 1 ? argv[1] : "circle";
    const int n = argc > 2 ? atoi(argv[2]) : 1000;
    const int threads = argc > 3 ? atoi(argv[3]) : 1;
    const int warm = argc > 4 ? atoi(argv[4]) : 100;
    const int steps = argc > 5 ? atoi(argv[5]) : 200;
    const char *solver = argc > 6 ? argv[6] : NULL; /* orca (default), ue or rvo */
    if (solver && rvo_solver_from_name(solver) < 0) {
        fprintf(stderr, "unknown solver '%s' (orca, ue, rvo)\n", solver);
        return 2;
    }
    const char *mode = argc > 7 ? argv[7] : "default";
    if (strcmp(mode, "default") != 0 && strcmp(mode, "plain") != 0 && strcmp(mode, "features") != 0) {
        fprintf(stderr, "unknown mode '%s' (default, plain, features)\n", mode);
        return 2;
    }
    scene s = make(name, n, threads);
    if (solver) rvo_world_set_solver(s.w, (rvo_solver)rvo_solver_from_name(solver));
    if (strcmp(mode, "default") != 0) rvo_world_set_rvo2_compat(s.w, true);
    if (strcmp(mode, "features") == 0) {
        for (int i = 0; i < n; ++i) {
            rvo_agent_set_param(s.w, s.ids[i], RVO_PARAM_WEIGHT, 0.3 + 0.1 * (i % 5));
            rvo_agent_set_param(s.w, s.ids[i], RVO_PARAM_GROUPS, 1 + (i % 2));
            rvo_agent_set_param(s.w, s.ids[i], RVO_PARAM_MASK, 3);
            rvo_agent_set_param(s.w, s.ids[i], RVO_PARAM_HEIGHT, 2.0);
        }
    }
    for (int k = 0; k < warm; ++k) {
        set_prefs(&s);
        rvo_world_step(s.w, 0);
    }
    const double t0 = now_ms();
    for (int k = 0; k < steps; ++k) {
        set_prefs(&s);
        rvo_world_step(s.w, 0);
    }
    const double ms = (now_ms() - t0) / steps;
    printf("%s,%d,%d,%.4f,%.4f,%s,%s\n", name, n, threads, ms, ms * 1000.0 / n, solver ? solver : "orca", mode);
    free_scene(&s);
    return 0;
}
