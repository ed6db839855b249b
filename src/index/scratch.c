/* Per-worker scratch (scratch.h) and rvo__prepare. */
#include "index/scratch.h"
#include "index/grid.h"

#include <string.h>

bool rvo__scratch_reserve(rvo_world *w) {
    /* room for the most neighbours any agent takes (not RVO_MAX_NEIGHBORS_LIMIT:
     * 80 KB per worker that most worlds never use), its obstacle lines and one more */
    const int32_t most = w->k_most < 0                         ? 0
                         : w->k_most < RVO_MAX_NEIGHBORS_LIMIT ? w->k_most
                                                               : RVO_MAX_NEIGHBORS_LIMIT;
    const int32_t lines = w->nverts + most + 1;
    for (int32_t k = 0; k < w->threads; ++k) {
        scratch *s = &w->scratch[k];
        void **const arrays[] = {(void **)&s->lines, (void **)&s->proj};
        const size_t elems[] = {sizeof *s->lines, sizeof *s->proj};
        if (!rvo__grow_arrays(w, &s->lines_cap, lines, 2, arrays, elems))
            return false;
        if (!rvo__grow(w, (void **)&s->agents, &s->agents_cap, most + 1, sizeof *s->agents) ||
            !rvo__grow(w, (void **)&s->obst, &s->obst_cap, w->nverts + 1, sizeof *s->obst) ||
            !rvo__grow(w, (void **)&s->spans, &s->spans_cap, 2 * most + w->nverts + 1, sizeof *s->spans))
            return false;
        if (s->stamp_cap < w->nverts + 1) {
            const int32_t old = s->stamp_cap;
            if (!rvo__grow(w, (void **)&s->stamp, &s->stamp_cap, w->nverts + 1, sizeof *s->stamp))
                return false;
            memset(s->stamp + old, 0, sizeof *s->stamp * (size_t)(s->stamp_cap - old));
        }
    }
    return true;
}

void rvo__scratch_free(rvo_world *w) {
    for (int32_t k = 0; k < w->threads; ++k) {
        scratch *s = &w->scratch[k];
        rvo__realloc(w, s->lines, sizeof *s->lines * (size_t)s->lines_cap, 0);
        rvo__realloc(w, s->proj, sizeof *s->proj * (size_t)s->lines_cap, 0);
        rvo__realloc(w, s->agents, sizeof *s->agents * (size_t)s->agents_cap, 0);
        rvo__realloc(w, s->obst, sizeof *s->obst * (size_t)s->obst_cap, 0);
        rvo__realloc(w, s->stamp, sizeof *s->stamp * (size_t)s->stamp_cap, 0);
        rvo__realloc(w, s->spans, sizeof *s->spans * (size_t)s->spans_cap, 0);
        memset(s, 0, sizeof *s);
    }
}

bool rvo__prepare(rvo_world *w) {
    if (!w->grid.valid && !rvo__agent_grid_build(w))
        return false;
    if (!w->egrid.valid && !rvo__edge_grid_build(w))
        return false;
    return rvo__scratch_reserve(w);
}
