/* Slot tables: ids with a generation, so a removed id is never mistaken for
 * a live one. id = generation << 24 | (slot + 1); 0 is null. */
#include "base/ids.h"

#include <string.h>

rvo_status rvo__slot_alloc(rvo_base *b, slot_table *t, int32_t dense, uint64_t *id) {
    RVO_ASSERT(dense >= 0 && t->nfree >= 0 && t->nfree <= t->used && t->used <= t->cap);
    int32_t slot;
    if (t->nfree > 0) {
        slot = t->free[--t->nfree];
    } else {
        if (t->used >= RVO_MAX_SLOTS)
            return RVO_ERR_CAPACITY;
        if (t->used == t->cap) {
            void **const arrays[] = {(void **)&t->gen, (void **)&t->index, (void **)&t->free};
            const size_t elems[] = {sizeof *t->gen, sizeof *t->index, sizeof *t->free};
            if (!rvo__base_grow_arrays(b, &t->cap, t->used + 1, 3, arrays, elems))
                return RVO_ERR_OUT_OF_MEMORY;
        }
        slot = t->used++;
        t->gen[slot] = 0;
    }
    t->index[slot] = dense;
    *id = ((uint64_t)t->gen[slot] << RVO_SLOT_BITS) | (uint64_t)(slot + 1);
    return RVO_OK;
}

void rvo__slot_set_index(slot_table *t, uint64_t id, int32_t dense) {
    RVO_ASSERT(dense >= 0 && rvo__slot_lookup(t, id) >= 0); /* a live id */
    t->index[(id & ((1u << RVO_SLOT_BITS) - 1)) - 1] = dense;
}

void rvo__slot_release(slot_table *t, uint64_t id) {
    const int32_t slot = (int32_t)(id & ((1u << RVO_SLOT_BITS) - 1)) - 1;
    RVO_ASSERT(rvo__slot_lookup(t, id) >= 0); /* a live id, released once */
    t->index[slot] = -1;
    /* A slot whose generation is spent is retired for good. */
    if (t->gen[slot] < RVO_MAX_GENERATION) {
        t->gen[slot]++;
        t->free[t->nfree++] = slot;
    }
}

void rvo__slot_free(rvo_base *b, slot_table *t) {
    rvo__base_realloc(b, t->gen, sizeof *t->gen * (size_t)t->cap, 0);
    rvo__base_realloc(b, t->index, sizeof *t->index * (size_t)t->cap, 0);
    rvo__base_realloc(b, t->free, sizeof *t->free * (size_t)t->cap, 0);
    memset(t, 0, sizeof *t);
}
