/* Slot tables: ids with a generation, so a removed id is never mistaken for
 * a live one. id = generation << RVO_SLOT_BITS | (slot + 1); 0 is null. */
#ifndef RVO_BASE_IDS_H
#define RVO_BASE_IDS_H

#include "base/alloc.h"

#define RVO_SLOT_BITS 24
#define RVO_MAX_GENERATION ((1u << 29) - 1) /* keeps ids below 2^53 */

typedef struct slot_table {
    uint32_t *gen;  /* generation per slot */
    int32_t *index; /* dense index, -1 when free */
    int32_t *free;  /* stack of free slots */
    int32_t nfree;
    int32_t used; /* slots ever handed out */
    int32_t cap;
} slot_table;

rvo_status rvo__slot_alloc(rvo_base *b, slot_table *t, int32_t dense, uint64_t *id);
/* Dense index of id, or -1; inline: every per-agent call looks its id up. */
static inline int32_t rvo__slot_lookup(const slot_table *t, uint64_t id) {
    const uint64_t low = id & ((1u << RVO_SLOT_BITS) - 1);
    const uint64_t gen = id >> RVO_SLOT_BITS;
    if (low == 0 || low > (uint64_t)t->used)
        return -1;
    const int32_t slot = (int32_t)low - 1;
    if (t->gen[slot] != gen || t->index[slot] < 0)
        return -1;
    return t->index[slot];
}
/* id must be live (looked up before). */
void rvo__slot_release(slot_table *t, uint64_t id);
void rvo__slot_set_index(slot_table *t, uint64_t id, int32_t dense);
void rvo__slot_free(rvo_base *b, slot_table *t);

#endif
