/* The rally scenes (rally_scenes.h) over several seeds and every mode: does
 * a group sent to a destination too small for it come to rest? Prints, per
 * scene and arrival radius (3 m, 1.5 m, 0.5 m, none at full speed, none
 * with the offset as the preferred velocity), the mean speed over the last 20 s (mean and
 * worst over the seeds), the agents above 0.2 m/s at the end (mean and
 * worst), the worst overlap and the runs that miss issue 16's done-when
 * (mean speed above 0.05 m/s, more than one agent moving at the end or an
 * overlap above 1%), then the totals over the rows with an arrival radius.
 * The block's starts move by up to RALLY_BLOCK_JITTER, drawn from the seed:
 * unmoved, every seed gave the block one and the same run.
 *   rally [SEEDS [default|soft|rvo2 [HORIZON]]]
 *                              (default: 5 seeds, every mode, horizon 2 s)
 *   rally --sweep [SEEDS]      the default mode over settings: time steps
 *                              1/60, 0.1 and 0.25 s, radius 0.5 (neighbour
 *                              distance 5) and 1 (10, the scene scaled),
 *                              max speeds 1, 2, 4, horizons 1, 2, 5, 10 s;
 *                              arrival radii 3 and 1.5 radius sums; the
 *                              runs missed per setting, then by horizon and
 *                              by time step (1 seed: about 5 minutes)
 *   rally --sweep SEEDS offset the same settings steered by the offset to
 *                              the slot, no arrival radius
 *   rally --sweep SEEDS small  the same settings, arrival radii of one and
 *                              half a radius (half the agents reach theirs
 *                              and stand idle among the rest) */
#include "rally_scenes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The modes' names, by RALLY_DEFAULT, RALLY_SOFT and RALLY_RVO2. */
static const char *const mode_names[] = {"default", "soft", "rvo2"};
#define NMODES ((int)(sizeof mode_names / sizeof *mode_names))

static void report(int seeds, int mode, float horizon) {
    static const float radii[] = {3.0f, 1.5f, 0.5f, 0.0f, RALLY_OFFSET};
    double speed_sum = 0;
    int rows = 0, moving_sum = 0, missed_sum = 0;
    printf("mode %s, %d seeds, time horizon %g s\n", mode_names[mode], seeds, horizon);
    rally_setting st = rally_default;
    st.horizon = horizon;
    st.jitter = RALLY_BLOCK_JITTER;
    for (int scene = 0; scene < RALLY_SCENES; ++scene)
        for (int k = 0; k < (int)(sizeof radii / sizeof *radii); ++k) {
            double speed = 0, overlap = 0, slowest = 0;
            int moving = 0, worst = 0, missed = 0;
            for (int s = 0; s < seeds; ++s) {
                const rest r = rally_in(scene, radii[k], 1, 12345u + 7919u * (unsigned)s, mode, st);
                if (!r.ok) {
                    fprintf(stderr, "rally: an rvo call failed\n");
                    exit(1);
                }
                speed += r.speed;
                slowest = r.speed > slowest ? r.speed : slowest;
                missed += rally_missed(r);
                moving += r.moving;
                worst = r.moving > worst ? r.moving : worst;
                overlap = r.overlap > overlap ? r.overlap : overlap;
            }
            char arrival[32];
            snprintf(arrival, sizeof arrival, radii[k] < 0 ? "offset as velocity" : "arrival %.1f m",
                     radii[k]);
            printf("  %-24s %-18s: mean speed %.3f m/s (worst %.3f), moving at the end %4.1f (worst "
                   "%2d), worst overlap %5.2f%%, missed %d of %d\n",
                   rally_names[scene], arrival, speed / seeds, slowest, (double)moving / seeds, worst,
                   100 * overlap, missed, seeds);
            if (radii[k] > 0)
                speed_sum += speed / seeds, moving_sum += moving, missed_sum += missed, ++rows;
        }
    printf(
        "  with an arrival radius: mean speed %.4f m/s, moving at the end %d in all, missed %d of %d runs\n",
        speed_sum / rows, moving_sum, missed_sum, rows * seeds);
}

/* The sweep's arrival: radii of 3 and 1.5 radius sums, the offset as the
 * preferred velocity, or radii of one and half a radius. */
enum { SWEEP_RADII, SWEEP_OFFSET, SWEEP_SMALL };

static int sweep(int seeds, int arrival) {
    const bool offset = arrival == SWEEP_OFFSET;
    const float far = arrival == SWEEP_SMALL ? 0.5f : 3.0f, near = arrival == SWEEP_SMALL ? 0.25f : 1.5f;
    static const float dts[] = {1.0f / 60.0f, 0.1f, 0.25f}, radii[] = {0.5f, 1.0f}, speeds[] = {1, 2, 4},
                       horizons[] = {1, 2, 5, 10};
    int by_horizon[4] = {0}, by_dt[3] = {0}, missed_all = 0, runs_all = 0;
    for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 2; ++b)
            for (int c = 0; c < 3; ++c)
                for (int d = 0; d < 4; ++d) {
                    const rally_setting st = {dts[a],      radii[b], speeds[c],         10.0f * radii[b],
                                              horizons[d], 0,        RALLY_BLOCK_JITTER};
                    int missed = 0, runs = 0, moving = 0;
                    double worst = 0;
                    for (int scene = 0; scene < RALLY_SCENES; ++scene)
                        for (int k = 0; k < (offset ? 1 : 2); ++k)
                            for (int s = 0; s < seeds; ++s) {
                                const float arrive =
                                    offset ? RALLY_OFFSET : (k == 0 ? far : near) * st.radius / 0.5f;
                                const rest r = rally_in(scene, arrive, 1, 12345u + 7919u * (unsigned)s,
                                                        RALLY_DEFAULT, st);
                                if (!r.ok) {
                                    fprintf(stderr, "rally: an rvo call failed\n");
                                    return 1;
                                }
                                missed += rally_missed(r);
                                ++runs;
                                worst = r.speed > worst ? r.speed : worst;
                                moving = r.moving > moving ? r.moving : moving;
                            }
                    printf("dt %.4f radius %.1f speed %g horizon %2g: missed %d of %d "
                           "(worst mean speed %.3f m/s, most moving %d)\n",
                           st.dt, st.radius, st.max_speed, st.horizon, missed, runs, worst, moving);
                    by_horizon[d] += missed, by_dt[a] += missed, missed_all += missed, runs_all += runs;
                }
    printf("by horizon 1, 2, 5, 10 s: %d, %d, %d, %d; by time step 1/60, 0.1, 0.25 s: %d, %d, %d\n",
           by_horizon[0], by_horizon[1], by_horizon[2], by_horizon[3], by_dt[0], by_dt[1], by_dt[2]);
    printf("missed %d of %d runs\n", missed_all, runs_all);
    return 0;
}

int main(int argc, char **argv) {
    if (argc > 1 && !strcmp(argv[1], "--sweep")) {
        const int seeds = argc > 2 ? atoi(argv[2]) : 1;
        const int arrival = argc <= 3                    ? SWEEP_RADII
                            : !strcmp(argv[3], "offset") ? SWEEP_OFFSET
                            : !strcmp(argv[3], "small")  ? SWEEP_SMALL
                                                         : -1;
        if (seeds < 1 || arrival < 0) {
            fprintf(stderr, "usage: rally --sweep [SEEDS [offset|small]]\n");
            return 2;
        }
        return sweep(seeds, arrival);
    }
    const int seeds = argc > 1 ? atoi(argv[1]) : 5;
    const float horizon = argc > 3 ? (float)atof(argv[3]) : 2.0f;
    if (seeds < 1 || !(horizon > 0.0f)) {
        fprintf(stderr, "usage: rally [SEEDS [default|soft|rvo2 [HORIZON]]]\n");
        return 2;
    }
    if (argc > 2) {
        /* (an unknown name is an error: taken as the default mode, `rally 10
         * rvo2_compat` printed the default mode's rows under that name) */
        int mode = 0;
        while (mode < NMODES && strcmp(argv[2], mode_names[mode]))
            ++mode;
        if (mode == NMODES) {
            fprintf(stderr, "rally: no mode %s (default, soft or rvo2)\n", argv[2]);
            return 2;
        }
        report(seeds, mode, horizon);
    } else {
        for (int mode = 0; mode < NMODES; ++mode)
            report(seeds, mode, 2.0f);
    }
    return 0;
}
