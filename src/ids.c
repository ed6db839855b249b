/* Slot tables: ids with a generation, so a removed id is never mistaken for
 * a live one. id = generation << 24 | (slot + 1); 0 is null. */
#include "rvo_internal.h"

#include <string.h>

rvo_status rvo__slot_alloc(rvo_world *w, slot_table *t, int32_t dense, uint64_t *id) {
    int32_t slot;
    if (t->nfree > 0) {
        slot = t->free[--t->nfree];
    } else {
        if (t->used >= RVO_MAX_SLOTS) return RVO_ERR_CAPACITY;
        if (t->used == t->cap) {
            int32_t c1 = t->cap, c2 = t->cap, c3 = t->cap;
            if (!rvo__grow(w, (void **)&t->gen, &c1, t->used + 1, sizeof *t->gen) ||
                !rvo__grow(w, (void **)&t->index, &c2, t->used + 1, sizeof *t->index) ||
                !rvo__grow(w, (void **)&t->free, &c3, t->used + 1, sizeof *t->free)) {
                /* keep the three arrays' capacities in step: use the smallest */
                int32_t m = c1 < c2 ? c1 : c2;
                t->cap = m < c3 ? m : c3;
                return RVO_ERR_OUT_OF_MEMORY;
            }
            t->cap = c1;
        }
        slot = t->used++;
        t->gen[slot] = 0;
    }
    t->index[slot] = dense;
    *id = ((uint64_t)t->gen[slot] << RVO_SLOT_BITS) | (uint64_t)(slot + 1);
    return RVO_OK;
}

void rvo__slot_set_index(slot_table *t, uint64_t id, int32_t dense) {
    t->index[(id & ((1u << RVO_SLOT_BITS) - 1)) - 1] = dense;
}

void rvo__slot_release(slot_table *t, uint64_t id) {
    const int32_t slot = (int32_t)(id & ((1u << RVO_SLOT_BITS) - 1)) - 1;
    t->index[slot] = -1;
    /* A slot whose generation is spent is retired for good. */
    if (t->gen[slot] < RVO_MAX_GENERATION) {
        t->gen[slot]++;
        t->free[t->nfree++] = slot;
    }
}

void rvo__slot_free(rvo_world *w, slot_table *t) {
    rvo__realloc(w, t->gen, sizeof *t->gen * (size_t)t->cap, 0);
    rvo__realloc(w, t->index, sizeof *t->index * (size_t)t->cap, 0);
    rvo__realloc(w, t->free, sizeof *t->free * (size_t)t->cap, 0);
    memset(t, 0, sizeof *t);
}
