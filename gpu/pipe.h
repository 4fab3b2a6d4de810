/*
 * gpu/pipe.h - the arithmetic of the asynchronous pipeline that the sm_90
 * (wgmma) and sm_100 (tcgen05) GEMM kernels share: the stage ring of
 * full/empty mbarriers, the persistent tile scheduler with its CTA
 * clusters, and the tile order.  gpu/pipe.cuh holds the device side (the
 * mbarrier and TMA instructions, the tensor maps and the producer loop);
 * this header is plain C, compiled by the C compiler for the dry runs
 * (tests/sim/sm90-dry-t, tests/sim/sm100-dry-t) and by nvcc for the
 * kernels, so that a kernel and its dry run take the same slot, phase and
 * tile for every step.  doc/kernels.md ("One pipeline, two architectures")
 * draws it.
 *
 * The ring.  A kernel's dynamic shared memory starts (1024-aligned) with
 * `stages` stage slots of stage_bytes each; each k-step of each tile goes
 * through the slots in turn.  Per slot s there are two mbarriers, full[s]
 * (the producer's arrive.expect_tx of stage_tx bytes, completed when TMA
 * has landed them) and empty[s] (the consumers' release), 8 bytes each at
 * off_bar + 8 s and off_bar + 8 (stages + s); a kernel's own barriers
 * follow at smma_pipe_bar_end.  The iter-th k-step a CTA handles (counted
 * over all its tiles) uses slot iter % stages and waits for the phase of
 * parity (iter / stages) & 1 of full[slot]; the producer waits for the
 * opposite parity of empty[slot] (a fresh barrier's phase of parity 1
 * counts as completed, so the first round of slots does not wait).
 *
 * The scheduler.  The output is cut into tiles_m x tiles_n tiles.  CTAs
 * come in clusters of `cluster` CTAs (1 or 2) side by side along M; a
 * cluster computes one "unit" of `cluster` tiles at a time, CTA rank r of
 * the cluster the tile of row um * cluster + r (a CTA whose row lies past
 * tiles_m computes a tile of zeros and stores nothing: it still loads its
 * share of the cluster's operands).  There are grid / cluster clusters, and
 * cluster q takes the units q, q + clusters, q + 2 clusters, ... (a static
 * persistent schedule; with grid = the number of units every CTA computes
 * one unit).
 *
 * The tile order.  Units are numbered in groups of `group` unit rows: the
 * units of rows [g * group, (g + 1) * group) come before those of the next
 * group, M fastest within the group, so that the CTAs running at the same
 * time share panels of A and B in L2.  group >= units_m gives plain
 * M-fastest order.
 */
#ifndef SOFTMMA_GPU_PIPE_H
#define SOFTMMA_GPU_PIPE_H 1

#include <stdbool.h>
#include <stdint.h>

#include "../sim/softmma/hd.h"

/* D and C storage as the epilogues see them (the sm100 plan's
 * SMMA_SM100_F32 ... are the same numbers). */
enum { SMMA_PIPE_F32 = 0, SMMA_PIPE_BF16, SMMA_PIPE_F16, SMMA_PIPE_NONE };

/* The part of a kernel's plan the pipeline reads. */
typedef struct smma_pipe {
    /* The ring. */
    uint32_t stages;            /* stage slots: 1 (teaching kernels) to 8 */
    uint32_t stage_bytes;       /* bytes between slots: a multiple of 1024 */
    uint32_t stage_tx;          /* bytes TMA lands in one slot (its transaction count) */
    uint32_t off_bar;           /* full[0] (shared offset; 8-byte aligned) */
    uint32_t kiters;            /* k-steps per tile */
    /* The scheduler and the tile order. */
    uint32_t tiles_m, tiles_n;  /* tiles of the output */
    uint32_t cluster;           /* CTAs per cluster, along M: 1 or 2 */
    uint32_t group;             /* unit rows per group of the tile order (>= 1) */
    uint32_t grid;              /* CTAs launched: a multiple of cluster */
} smma_pipe;

/* ---- the ring -------------------------------------------------------------------------- */

SMMA_HD uint32_t
smma_pipe_slot(const smma_pipe *p, uint32_t iter)
{
    return iter % p->stages;
}

SMMA_HD uint32_t
smma_pipe_phase(const smma_pipe *p, uint32_t iter)
{
    return (iter / p->stages) & 1u;
}

/* The position of the iter-th k-step in the ring, stepped without a
 * division: a kernel starts at { 0, 0 } (iter 0) and calls
 * smma_pipe_next once per k-step; slot and phase then equal
 * smma_pipe_slot and smma_pipe_phase of the k-step's iter. */
typedef struct smma_pipe_pos {
    uint32_t slot, phase;
} smma_pipe_pos;

SMMA_HD void
smma_pipe_next(const smma_pipe *p, smma_pipe_pos *pos)
{
    if (++pos->slot == p->stages) {
        pos->slot = 0;
        pos->phase ^= 1u;
    }
}

/* The shared offsets of full[slot] and empty[slot], and the first byte
 * after the ring's barriers. */
SMMA_HD uint32_t
smma_pipe_full(const smma_pipe *p, uint32_t slot)
{
    return p->off_bar + 8u * slot;
}

SMMA_HD uint32_t
smma_pipe_empty(const smma_pipe *p, uint32_t slot)
{
    return p->off_bar + 8u * (p->stages + slot);
}

SMMA_HD uint32_t
smma_pipe_bar_end(const smma_pipe *p)
{
    return p->off_bar + 16u * p->stages;
}

/* ---- the scheduler ------------------------------------------------------------------------ */

/* Unit rows (tiles_m / cluster, rounded up) and units. */
SMMA_HD uint32_t
smma_pipe_units_m(const smma_pipe *p)
{
    return (p->tiles_m + p->cluster - 1) / p->cluster;
}

SMMA_HD uint32_t
smma_pipe_units(const smma_pipe *p)
{
    return smma_pipe_units_m(p) * p->tiles_n;
}

/* The number of units CTA c computes, and the index of its i-th. */
SMMA_HD uint32_t
smma_pipe_cta_nunits(const smma_pipe *p, uint32_t c)
{
    uint32_t q = c / p->cluster, nq = p->grid / p->cluster, u = smma_pipe_units(p);

    return q < u ? (u - q + nq - 1) / nq : 0;
}

SMMA_HD uint32_t
smma_pipe_cta_unit(const smma_pipe *p, uint32_t c, uint32_t i)
{
    return c / p->cluster + i * (p->grid / p->cluster);
}

/* ---- the tile order ---------------------------------------------------------------------- */

/* Unit u as a unit row and a tile column. */
SMMA_HD void
smma_pipe_unit_pos(const smma_pipe *p, uint32_t u, uint32_t *um, uint32_t *tn)
{
    uint32_t units_m = smma_pipe_units_m(p), gsz = p->group * p->tiles_n;
    uint32_t g = u / gsz, r = u % gsz, rows = units_m - g * p->group;

    if (rows > p->group)
        rows = p->group;
    *um = g * p->group + r % rows;
    *tn = r / rows;
}

/* The tile CTA c computes as its i-th: tile row *tm (which may lie past
 * tiles_m in a cluster of 2, see above) and tile column *tn.  Returns
 * whether the tile lies inside the output. */
SMMA_HD bool
smma_pipe_cta_tile(const smma_pipe *p, uint32_t c, uint32_t i, uint32_t *tm, uint32_t *tn)
{
    uint32_t um;

    smma_pipe_unit_pos(p, smma_pipe_cta_unit(p, c, i), &um, tn);
    *tm = um * p->cluster + c % p->cluster;
    return *tm < p->tiles_m;
}

#endif /* SOFTMMA_GPU_PIPE_H */
