/*
 * tests/fuzz/vectors-fuzz.c - a libFuzzer target for the vector file reader
 * (softmma/vectors.h).  Build and run with "make fuzz-vectors" and
 * "make check-fuzz" (clang-14 -fsanitize=fuzzer,address,undefined); the seed
 * corpus is tests/fuzz/corpus/vectors/, the record of the long run
 * bench/fuzz-vectors.md.
 *
 * Every input must be read to its end or refused with SMMA_EPARSE and a
 * message "fuzz:LINE: ..." (SMMA_ENOMEM is allowed too); an input that is
 * read is written again, and that text must read back and write to the
 * same bytes.  Anything else aborts, and so do the sanitizers' findings.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <softmma/vectors.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Reads a text and writes what it read; SMMA_OK with *w set, or the status. */
static int
rewrite(const void *data, size_t size, smma_vec_writer **w, smma_error *err)
{
    smma_vec_reader *r;
    const smma_vec_case *c;
    int rc = smma_vec_open_mem(data, size, "fuzz", &r, err);

    *w = NULL;
    if (rc != SMMA_OK)
        return rc;
    if (smma_vec_writer_new(smma_vec_header_of(r), w, err) != SMMA_OK) {
        fprintf(stderr, "a header read is refused by the writer: %s\n", err->msg);
        abort();
    }
    while ((rc = smma_vec_next(r, &c, err)) == SMMA_OK && c != NULL)
        if (smma_vec_put_case(*w, c, err) != SMMA_OK) {
            fprintf(stderr, "a case read is refused by the writer: %s\n", err->msg);
            abort();
        }
    smma_vec_close(r);
    if (rc != SMMA_OK) {
        smma_vec_writer_free(*w);
        *w = NULL;
    }
    return rc;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    smma_vec_writer *w1, *w2;
    const char *t1, *t2;
    size_t l1, l2;
    smma_error err;
    int rc;

    err.msg[0] = '\0';
    rc = rewrite(data, size, &w1, &err);
    if (rc == SMMA_EPARSE) {
        if (strncmp(err.msg, "fuzz:", 5) != 0 || err.msg[5] < '0' || err.msg[5] > '9') {
            fprintf(stderr, "a refusal without 'fuzz:LINE:': %s\n", err.msg);
            abort();
        }
        return 0;
    }
    if (rc == SMMA_ENOMEM)
        return 0;
    if (rc != SMMA_OK) {
        fprintf(stderr, "unexpected status %d: %s\n", rc, err.msg);
        abort();
    }
    if (smma_vec_finish(w1, &t1, &l1, &err) != SMMA_OK || rewrite(t1, l1, &w2, &err) != SMMA_OK ||
        smma_vec_finish(w2, &t2, &l2, &err) != SMMA_OK || l1 != l2 || memcmp(t1, t2, l1) != 0) {
        fprintf(stderr, "written text does not read back to the same bytes: %s\n", err.msg);
        abort();
    }
    smma_vec_writer_free(w1);
    smma_vec_writer_free(w2);
    return 0;
}
