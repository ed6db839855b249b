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
/* Dense index of id, or -1; inline: every per-agent call looks its id up.
 * The null id's slot (0 - 1) wraps to the largest value, so one unsigned
 * compare rejects it and every slot never handed out; a free slot's index
 * is -1, which is the answer. */
static inline int32_t rvo__slot_lookup(const slot_table *t, uint64_t id) {
    const uint64_t slot = (id & ((1u << RVO_SLOT_BITS) - 1)) - 1;
    if (slot >= (uint64_t)(uint32_t)t->used || t->gen[slot] != id >> RVO_SLOT_BITS)
        return -1;
    return t->index[slot];
}
/* id must be live (looked up before). */
void rvo__slot_release(slot_table *t, uint64_t id);
void rvo__slot_set_index(slot_table *t, uint64_t id, int32_t dense);
void rvo__slot_free(rvo_base *b, slot_table *t);

#endif
