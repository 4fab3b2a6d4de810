/*
 * ref/acc.h - the exact accumulator (internal to libsoftmma; tests use it).
 *
 * A signed fixed-point integer of SMMA_ACC_LIMBS 64-bit limbs in two's
 * complement whose least significant bit weighs 2^SMMA_ACC_LSB.  It holds
 * every sum softmma forms exactly: products of two operands that are each an
 * element (fp32 at most: 24 significant bits, exponents down to 2^-149)
 * times a scale (e8m0 down to 2^-127, ue4m3: 4 significant bits), so down to
 * 2^-552, and up to 2^510 times any realistic number of terms.
 */
#ifndef SOFTMMA_ACC_H
#define SOFTMMA_ACC_H 1

#include <stdbool.h>
#include <stdint.h>

#include <softmma/format.h>

#define SMMA_ACC_LIMBS 20
#define SMMA_ACC_LSB (-640)

typedef struct smma_acc {
    uint64_t limb[SMMA_ACC_LIMBS]; /* little-endian, two's complement */
} smma_acc;

/* Sets the accumulator to zero. */
void smma_acc_zero(smma_acc *a);

/* Adds (or subtracts, when neg) m * 2^e exactly.  m must be below 2^63 and
 * m * 2^e must lie in the accumulator's range: e >= SMMA_ACC_LSB and
 * e + 64 <= SMMA_ACC_LSB + 64 * SMMA_ACC_LIMBS - 2. */
void smma_acc_add(smma_acc *a, uint64_t m, int e, bool neg);

/* True when the accumulator holds exactly zero. */
bool smma_acc_is_zero(const smma_acc *a);

/* True when the accumulator is negative. */
bool smma_acc_is_negative(const smma_acc *a);

/* The value rounded to 53 bits with round-to-odd: the truncated significand
 * with its last bit set when any discarded bit is set.  Rounding that double
 * to any format of at most 51 significant bits, in any direction, gives the
 * same result as rounding the exact value.  Zero gives +0. */
double smma_acc_to_double_odd(const smma_acc *a);

/* The magnitude as a sequence of bits: the position of the most significant
 * set bit (as an exponent, value 2^pos), or INT32_MIN for zero. */
int smma_acc_msb(const smma_acc *a);

#endif
