/* The rally scenes (rally_scenes.h) over several seeds and every mode: does
 * a group sent to a destination too small for it come to rest? Prints, per
 * scene and arrival radius, the mean speed over the last 20 s (mean and
 * worst over the seeds), the agents above 0.2 m/s at the end (mean and
 * worst), the worst overlap and the runs that miss issue 16's done-when
 * (mean speed above 0.05 m/s, more than one agent moving at the end or an
 * overlap above 1%), then the totals over the rows with an arrival radius.
 *   rally [SEEDS [default|soft|rvo2 [HORIZON]]]
 *                              (default: 5 seeds, every mode, horizon 2 s) */
#include "rally_scenes.h"

#include <stdio.h>
#include <stdlib.h>

static void report(int seeds, int mode, float horizon) {
    static const char *const modes[] = {"default", "soft", "rvo2"};
    static const float radii[] = {3.0f, 1.5f, 0.0f};
    double speed_sum = 0;
    int rows = 0, moving_sum = 0, missed_sum = 0;
    printf("mode %s, %d seeds, time horizon %g s\n", modes[mode], seeds, horizon);
    for (int scene = 0; scene < RALLY_SCENES; ++scene)
        for (int k = 0; k < 3; ++k) {
            double speed = 0, overlap = 0, slowest = 0;
            int moving = 0, worst = 0, missed = 0;
            for (int s = 0; s < seeds; ++s) {
                const rest r = rally_at(scene, radii[k], 1, 12345u + 7919u * (unsigned)s, mode, horizon);
                if (!r.ok) {
                    fprintf(stderr, "rally: an rvo call failed\n");
                    exit(1);
                }
                speed += r.speed;
                slowest = r.speed > slowest ? r.speed : slowest;
                missed += r.speed > 0.05 || r.moving > 1 || r.overlap > 0.01;
                moving += r.moving;
                worst = r.moving > worst ? r.moving : worst;
                overlap = r.overlap > overlap ? r.overlap : overlap;
            }
            printf("  %-24s arrival %.1f m: mean speed %.3f m/s (worst %.3f), moving at the end %4.1f (worst "
                   "%2d), worst overlap %5.2f%%, missed %d of %d\n",
                   rally_names[scene], radii[k], speed / seeds, slowest, (double)moving / seeds, worst,
                   100 * overlap, missed, seeds);
            if (radii[k] > 0)
                speed_sum += speed / seeds, moving_sum += moving, missed_sum += missed, ++rows;
        }
    printf(
        "  with an arrival radius: mean speed %.4f m/s, moving at the end %d in all, missed %d of %d runs\n",
        speed_sum / rows, moving_sum, missed_sum, rows * seeds);
}

int main(int argc, char **argv) {
    const int seeds = argc > 1 ? atoi(argv[1]) : 5;
    const float horizon = argc > 3 ? (float)atof(argv[3]) : 2.0f;
    if (seeds < 1 || !(horizon > 0.0f)) {
        fprintf(stderr, "usage: rally [SEEDS [default|soft|rvo2 [HORIZON]]]\n");
        return 2;
    }
    if (argc > 2) {
        const int mode = !strcmp(argv[2], "soft")   ? RALLY_SOFT
                         : !strcmp(argv[2], "rvo2") ? RALLY_RVO2
                                                    : RALLY_DEFAULT;
        report(seeds, mode, horizon);
    } else {
        for (int mode = 0; mode < 3; ++mode)
            report(seeds, mode, 2.0f);
    }
    return 0;
}
