/*
 * softmma/vectors.h - golden vector files: a streaming reader, a writer whose
 * output is the same bytes for the same cases, and the SHA-256 that
 * vectors/SHA256SUMS is checked with.
 *
 * The text format (doc/vectors.md gives it in full, with a Python loader):
 *
 *     softmma-vectors 1
 *     suite encode.e4m3.rn.cuda
 *     generator softmma gen encode.e4m3.rn.cuda --level 1 --seed 1
 *     seed 1
 *     level 1
 *     profile cuda
 *     model -
 *     in x:fp32 sat:u8
 *     out code:e4m3
 *     cases 2
 *     # any line that starts with '#' is a comment; blank lines are ignored
 *     3f800000 01 38
 *     43e80000 00 7f
 *     end
 *
 * The first line names the format version.  The header then names the
 * suite, how it was made and its fields; `cases` ends the header.  A field
 * is name:type, or name:type[n] for n tokens; every token is a value written
 * as exactly the type's number of lowercase hex digits (readers accept
 * uppercase too).  Scalar fields are the tokens of one case line, the `in`
 * fields first, then the `out` fields (the expected results).
 *
 * Suites of matrices and registers add tagged blocks, declared as
 * "block in NAME:TYPE" or "block out NAME:TYPE".  Each case then starts with
 * a line "case INDEX" followed by its scalar tokens, and each block follows
 * in declared order as a line "NAME ROWS COLS" (decimal) and ROWS lines of
 * COLS tokens:
 *
 *     block out offset:u32
 *     cases 1
 *     case 0 00000003 00000021 20 00000006
 *     offset 3 2
 *     00000000 00000001
 *     00000002 00000003
 *     00000004 00000005
 *     end
 *
 * Lines hold only printable ASCII, spaces and tabs, and end with a newline
 * (LF); the last line is "end".  A reader refuses anything else with
 * SMMA_EPARSE and a message "NAME:LINE: what is wrong", and refuses sizes
 * past the limits below before allocating for them.
 */
#ifndef SOFTMMA_VECTORS_H
#define SOFTMMA_VECTORS_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <softmma/format.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The format version this library reads and writes. */
#define SMMA_VEC_VERSION 1

/* Limits.  A file that exceeds one is refused with a message naming it. */
#define SMMA_VEC_MAX_LINE 131072u      /* bytes of one line, newline excluded */
#define SMMA_VEC_MAX_FIELDS 16u        /* fields of a suite */
#define SMMA_VEC_MAX_TOKENS 4096u      /* scalar tokens of one case */
#define SMMA_VEC_MAX_DIM 65536u        /* rows or columns of one block */
#define SMMA_VEC_MAX_BLOCK 1048576u    /* values of one block */
#define SMMA_VEC_MAX_CASE 4194304u     /* values of all blocks of one case */
#define SMMA_VEC_MAX_CASES 4294967295u /* cases of one file */
#define SMMA_VEC_NAME_MAX 32u          /* a field name, NUL included */
#define SMMA_VEC_TEXT_MAX 128u         /* suite, profile and model names, NUL included */
#define SMMA_VEC_GEN_MAX 512u          /* the generator command, NUL included */

/* The value types of fields.  The first ten are the codes of the formats
 * and have the same numbers as smma_format; fp64 is a double's bits; u8 to
 * u64 are unsigned integers.  The numbering is part of the ABI. */
typedef enum smma_vec_type {
    SMMA_VT_E2M1 = 0,
    SMMA_VT_E2M3,
    SMMA_VT_E3M2,
    SMMA_VT_E4M3,
    SMMA_VT_E5M2,
    SMMA_VT_E8M0,
    SMMA_VT_UE4M3,
    SMMA_VT_BF16,
    SMMA_VT_FP16,
    SMMA_VT_FP32,
    SMMA_VT_FP64,
    SMMA_VT_U8,
    SMMA_VT_U16,
    SMMA_VT_U32,
    SMMA_VT_U64,
    SMMA_VT_COUNT
} smma_vec_type;

/* What a type is written as. */
typedef struct smma_vec_type_info {
    smma_vec_type id;
    const char *name;   /* "e4m3", "fp64", "u32", ... */
    unsigned bits;      /* bits a value may use: 4 for e2m1, 6 for e2m3, 8 for ue4m3 */
    unsigned digits;    /* hex digits of a token: ceil(bits / 4) */
    unsigned bytes;     /* bytes of a value in raw results and .npy files */
} smma_vec_type_info;

/* Returns the description of type t, or NULL when t is not a type. */
const smma_vec_type_info *smma_vec_type_get(smma_vec_type t);

/* Looks up a type by its exact name.  SMMA_EINVAL with a message naming the
 * unknown name and listing the known ones. */
int smma_vec_type_from_name(const char *name, smma_vec_type *out, smma_error *err);

/* The format whose codes type t holds, or SMMA_FORMAT_COUNT for fp64 and the
 * unsigned integers. */
smma_format smma_vec_type_format(smma_vec_type t);

/* One field of a suite. */
typedef struct smma_vec_field {
    char name[SMMA_VEC_NAME_MAX]; /* [A-Za-z_][A-Za-z0-9_]*, unique in the suite */
    smma_vec_type type;
    bool out;           /* an expected result (compared by a verifier) */
    bool block;         /* a tagged block, its size given per case */
    unsigned count;     /* scalar fields: tokens (1, or n for name:type[n]); blocks: 0 */
    size_t offset;      /* scalar fields: index of the first token among a case's
                           scalars (set by smma_vec_header_check) */
} smma_vec_field;

/* A file's header.  Fields are in token order: scalar inputs, scalar
 * outputs, then blocks in the order of their "block" lines. */
typedef struct smma_vec_header {
    unsigned version;
    char suite[SMMA_VEC_TEXT_MAX];
    char generator[SMMA_VEC_GEN_MAX]; /* the command that made the file, or "-" */
    uint64_t seed;
    unsigned level;
    char profile[SMMA_VEC_TEXT_MAX];  /* a profile name, or "-" */
    char model[SMMA_VEC_TEXT_MAX];    /* a numerics model name, or "-" */
    size_t nfields;
    smma_vec_field fields[SMMA_VEC_MAX_FIELDS];
    uint64_t cases;
    size_t nscalars;    /* scalar tokens of one case (set by smma_vec_header_check) */
    size_t nblocks;     /* block fields (set by smma_vec_header_check) */
    size_t suite_line;  /* reader: the line of the suite name, for messages */
} smma_vec_header;

/* Fills h with an empty header of the current version: no fields, no cases,
 * generator, profile and model "-", seed 0, level 1. */
void smma_vec_header_init(smma_vec_header *h);

/* Appends a field.  SMMA_EINVAL (the message names the field) when the name
 * is not an identifier or is taken, the type is unknown, count is 0 or
 * above SMMA_VEC_MAX_TOKENS for a scalar field, or the table is full.  Call
 * smma_vec_header_check after the last one. */
int smma_vec_header_add(smma_vec_header *h, const char *name, smma_vec_type type, bool out,
                        bool block, unsigned count, smma_error *err);

/* Checks a header and puts its fields in token order (scalar inputs, scalar
 * outputs, blocks; each group keeps its order), setting offset, nscalars and
 * nblocks.  SMMA_EINVAL with a message when the suite name is malformed or
 * of an unknown family (smma_vec_suite_check), a name or type is bad, there
 * is no output field, the scalar tokens exceed SMMA_VEC_MAX_TOKENS, or the
 * version is not SMMA_VEC_VERSION. */
int smma_vec_header_check(smma_vec_header *h, smma_error *err);

/* Checks a suite name: "FAMILY.PART[.PART...]" of lowercase letters, digits,
 * '_', '+' and '-', under SMMA_VEC_TEXT_MAX bytes, FAMILY one of decode,
 * encode, quant, scale-layout, fragment, mma, gemm.  SMMA_EINVAL with a
 * message naming what is wrong. */
int smma_vec_suite_check(const char *suite, smma_error *err);

/* Returns the index of the field with that name, or -1. */
int smma_vec_field_index(const smma_vec_header *h, const char *name);

/* One block of a case: rows x cols values, row-major. */
typedef struct smma_vec_block {
    size_t rows, cols;
    uint64_t *v;
} smma_vec_block;

/* One case.  scalars holds the header's nscalars values in token order;
 * blocks[i] is field i's block when field i is a block field. */
typedef struct smma_vec_case {
    uint64_t index;     /* 0, 1, ... in file order */
    size_t line;        /* reader: the line where the case starts */
    uint64_t *scalars;
    smma_vec_block blocks[SMMA_VEC_MAX_FIELDS];
} smma_vec_case;

/* Writes the token of value v of type t (digits lowercase hex digits and a
 * NUL) into buf, which holds at least 17 bytes. */
void smma_vec_format_token(smma_vec_type t, uint64_t v, char *buf);

/* ---- reading --------------------------------------------------------- */

typedef struct smma_vec_reader smma_vec_reader;

/* Opens a vector file and reads its header.  name is what messages call
 * the file (the path for smma_vec_open).  Errors: SMMA_EIO when the file
 * cannot be opened, SMMA_EPARSE "NAME:LINE: message" for a malformed
 * header, SMMA_ENOMEM.  On success *out must be closed with smma_vec_close.
 * smma_vec_open_file reads an open stream and does not close it;
 * smma_vec_open_mem reads len bytes at data, which must stay valid until
 * the reader is closed. */
int smma_vec_open(const char *path, smma_vec_reader **out, smma_error *err);
int smma_vec_open_file(FILE *f, const char *name, smma_vec_reader **out, smma_error *err);
int smma_vec_open_mem(const void *data, size_t len, const char *name, smma_vec_reader **out,
                      smma_error *err);

/* The header read by smma_vec_open. */
const smma_vec_header *smma_vec_header_of(const smma_vec_reader *r);

/* Reads the next case.  Sets *c to the case (valid until the next call or
 * smma_vec_close), or to NULL after the last case, once the "end" line and
 * the case count have been checked.  Errors: SMMA_EPARSE "NAME:LINE:
 * message", SMMA_EIO, SMMA_ENOMEM; after an error every call repeats it. */
int smma_vec_next(smma_vec_reader *r, const smma_vec_case **c, smma_error *err);

/* The current line (the last one read), for messages. */
size_t smma_vec_line(const smma_vec_reader *r);

/* Closes a reader (NULL is allowed). */
void smma_vec_close(smma_vec_reader *r);

/* ---- writing --------------------------------------------------------- */

typedef struct smma_vec_writer smma_vec_writer;

/* Starts a file with header h (checked with smma_vec_header_check; its
 * cases field is ignored: the count written is the number of cases put).
 * The text is built in memory.  SMMA_EINVAL or SMMA_ENOMEM. */
int smma_vec_writer_new(const smma_vec_header *h, smma_vec_writer **out, smma_error *err);

/* Adds a comment line "# text" (text: printable ASCII, no newline, at most
 * SMMA_VEC_MAX_LINE - 2 bytes; "" writes "#").  SMMA_EINVAL otherwise. */
int smma_vec_put_comment(smma_vec_writer *w, const char *text, smma_error *err);

/* Adds a case: c->scalars (nscalars values) and, for each block field i,
 * c->blocks[i]; c->index and c->line are ignored.  SMMA_ERANGE when a value
 * does not fit its type (the message names the field), SMMA_EINVAL when a
 * block's size is 0 or past the limits, SMMA_ENOMEM. */
int smma_vec_put_case(smma_vec_writer *w, const smma_vec_case *c, smma_error *err);

/* Adds a case of a suite without blocks: its nscalars values. */
int smma_vec_put_row(smma_vec_writer *w, const uint64_t *scalars, smma_error *err);

/* Completes the text (header with the case count, cases, "end") and
 * returns it; it stays valid until the writer is freed.  Further puts fail
 * with SMMA_EINVAL.  The same header and the same cases give the same
 * bytes. */
int smma_vec_finish(smma_vec_writer *w, const char **text, size_t *len, smma_error *err);

/* Completes the text and stores it at path: written to a temporary file in
 * the same directory, flushed to disk, then renamed over path, so path
 * holds either its old contents or the whole new file.  SMMA_EIO with a
 * message naming the path; the temporary file is removed then. */
int smma_vec_save(smma_vec_writer *w, const char *path, smma_error *err);

/* Frees a writer (NULL is allowed). */
void smma_vec_writer_free(smma_vec_writer *w);

/* Stores len bytes at path the same way (temporary file, flush, rename). */
int smma_vec_save_bytes(const void *data, size_t len, const char *path, smma_error *err);

/* ---- SHA-256 (FIPS 180-4) ------------------------------------------- */

typedef struct smma_sha256 {
    uint32_t h[8];
    uint64_t bytes;
    unsigned char buf[64];
    size_t nbuf;
} smma_sha256;

void smma_sha256_init(smma_sha256 *s);
void smma_sha256_update(smma_sha256 *s, const void *data, size_t len);
void smma_sha256_final(smma_sha256 *s, uint8_t digest[32]);

/* The digest of len bytes as 64 lowercase hex digits and a NUL. */
void smma_sha256_hex(const void *data, size_t len, char hex[65]);

#ifdef __cplusplus
}
#endif

#endif /* SOFTMMA_VECTORS_H */
