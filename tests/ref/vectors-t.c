/*
 * tests/ref/vectors-t.c - the golden vector file format (softmma/vectors.h).
 *
 *   - SHA-256 against the FIPS 180-4 examples and the well-known digests of
 *     the empty string and one million 'a', whole and in pieces;
 *   - types, suite names and header checks, with their messages;
 *   - the writer: literal texts written out here by hand, the same bytes
 *     twice, values that do not fit refused without a partial line, saving
 *     through a temporary file that never stays behind;
 *   - the reader: round trips through the writer, and one malformed text per
 *     kind of defect (truncated line or file, bad hex, token counts, unknown
 *     suite, version, absurd sizes, binary garbage, NUL bytes, overlong
 *     lines, ...), each refused with SMMA_EPARSE and "NAME:LINE: message"
 *     at the right line;
 *   - seeded random mutations of valid files: every one is read to the end
 *     or refused with a message, never anything else.
 */
#include <config.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <softmma/vectors.h>

#include "tap/basic.h"

/* ------------------------------------------------------------------ SHA-256 */

static void
check_sha256(void)
{
    static const struct {
        const char *in, *hex;
    } known[] = {
        { "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
        { "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
        { "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
          "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
        { "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopq"
          "klmnopqrlmnopqrsmnopqrstnopqrstu",
          "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1" },
    };
    char hex[65], *big;
    smma_sha256 s;
    uint8_t d[32];
    size_t i, at;
    tap_rng rng;
    unsigned bad = 0;

    for (i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
        smma_sha256_hex(known[i].in, strlen(known[i].in), hex);
        is_string(known[i].hex, hex, "SHA-256 of the %zu-byte message \"%.12s...\"",
                  strlen(known[i].in), known[i].in);
    }
    big = malloc(1000000);
    if (big == NULL)
        sysbail("no memory");
    memset(big, 'a', 1000000);
    smma_sha256_hex(big, 1000000, hex);
    is_string("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0", hex,
              "SHA-256 of one million 'a'");
    /* The same digest fed in random pieces (block boundaries cut anywhere). */
    tap_rng_seed(&rng, 7);
    for (i = 0; i < 20; i++) {
        char h2[65];
        unsigned k;

        smma_sha256_init(&s);
        for (at = 0; at < 1000000;) {
            size_t n = 1 + (size_t) (tap_rng_next(&rng) % 200);

            if (n > 1000000 - at)
                n = 1000000 - at;
            smma_sha256_update(&s, big + at, n);
            at += n;
        }
        smma_sha256_final(&s, d);
        for (k = 0; k < 32; k++)
            sprintf(h2 + 2 * k, "%02x", d[k]);
        if (strcmp(h2, hex) != 0)
            bad++;
    }
    ok(bad == 0, "one million 'a' in random pieces: the same digest, 20 times");
    free(big);
}

/* ------------------------------------------------------------------ names */

static void
check_types_and_names(void)
{
    static const char *const good[] = { "decode.e4m3", "encode.e4m3.rn.ml_dtypes",
                                        "scale-layout.128x4", "gemm.mxfp8.exact-rn",
                                        "mma.m16n8k32.e4m3.h100+fp8" };
    static const struct {
        const char *name, *needle;
    } bad[] = {
        { "frobnicate.e4m3", "unknown suite 'frobnicate.e4m3'" },
        { "decode", "FAMILY.PART" },
        { "decode.", "FAMILY.PART" },
        { "decode..e4m3", "FAMILY.PART" },
        { "Decode.E4M3", "malformed suite name" },
        { "decode.e4m3 x", "malformed suite name" },
        { "", "no suite name" },
    };
    smma_vec_type t;
    smma_error err;
    size_t i;

    is_int(1, (long long) smma_vec_type_get(SMMA_VT_E2M1)->digits, "e2m1 takes 1 hex digit");
    is_int(2, (long long) smma_vec_type_get(SMMA_VT_E2M3)->digits, "e2m3 takes 2 hex digits");
    is_int(16, (long long) smma_vec_type_get(SMMA_VT_FP64)->digits, "fp64 takes 16");
    is_int(2, (long long) smma_vec_type_get(SMMA_VT_BF16)->bytes, "bf16 is 2 bytes raw");
    ok(smma_vec_type_get(SMMA_VT_COUNT) == NULL, "no type past the last");
    ok(smma_vec_type_from_name("ue4m3", &t, &err) == SMMA_OK && t == SMMA_VT_UE4M3 &&
           smma_vec_type_format(t) == SMMA_UE4M3,
       "ue4m3 by name, the format's number");
    ok(smma_vec_type_format(SMMA_VT_U32) == SMMA_FORMAT_COUNT, "u32 is no format");
    ok(smma_vec_type_from_name("fp8", &t, &err) == SMMA_EINVAL &&
           strstr(err.msg, "'fp8'") != NULL && strstr(err.msg, "e4m3") != NULL,
       "unknown type: named, the known listed (%s)", err.msg);
    for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
        ok(smma_vec_suite_check(good[i], &err) == SMMA_OK, "suite name %s", good[i]);
    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        err.msg[0] = '\0';
        ok(smma_vec_suite_check(bad[i].name, &err) == SMMA_EINVAL &&
               strstr(err.msg, bad[i].needle) != NULL,
           "suite name '%s' refused (%s)", bad[i].name, err.msg);
    }
}

/* ------------------------------------------------------------------ headers */

/* The header of the format's own example (softmma/vectors.h). */
static void
example_header(smma_vec_header *h)
{
    smma_vec_header_init(h);
    strcpy(h->suite, "encode.e4m3.rn.cuda");
    strcpy(h->generator, "softmma gen encode.e4m3.rn.cuda --level 1 --seed 1");
    h->seed = 1;
    strcpy(h->profile, "cuda");
    /* Added out of order: the check puts inputs first. */
    if (smma_vec_header_add(h, "code", SMMA_VT_E4M3, true, false, 1, NULL) != SMMA_OK ||
        smma_vec_header_add(h, "x", SMMA_VT_FP32, false, false, 1, NULL) != SMMA_OK ||
        smma_vec_header_add(h, "sat", SMMA_VT_U8, false, false, 1, NULL) != SMMA_OK)
        bail("cannot build the example header");
}

static void
check_headers(void)
{
    smma_vec_header h;
    smma_error err;
    unsigned i;
    char name[8];

    example_header(&h);
    ok(smma_vec_header_check(&h, &err) == SMMA_OK && h.nscalars == 3 && h.nblocks == 0 &&
           strcmp(h.fields[0].name, "x") == 0 && strcmp(h.fields[2].name, "code") == 0 &&
           h.fields[2].offset == 2,
       "header check: inputs first (x sat code), offsets set");
    is_int(SMMA_EINVAL, smma_vec_header_add(&h, "x", SMMA_VT_U8, false, false, 1, &err),
           "a second field x is refused (%s)", err.msg);
    is_int(SMMA_EINVAL, smma_vec_header_add(&h, "1x", SMMA_VT_U8, false, false, 1, &err),
           "a name starting with a digit is refused (%s)", err.msg);
    is_int(SMMA_EINVAL, smma_vec_header_add(&h, "y", SMMA_VT_U8, false, false, 0, &err),
           "count 0 is refused (%s)", err.msg);
    is_int(SMMA_EINVAL, smma_vec_header_add(&h, "y", SMMA_VT_U8, false, false, 4097, &err),
           "count 4097 is refused (%s)", err.msg);
    is_int(SMMA_EINVAL, smma_vec_header_add(&h, "y", SMMA_VT_COUNT, false, false, 1, &err),
           "an unknown type is refused (%s)", err.msg);
    for (i = 0; i < 13; i++) {
        snprintf(name, sizeof(name), "f%u", i);
        smma_vec_header_add(&h, name, SMMA_VT_U8, false, false, 1, NULL);
    }
    is_int(SMMA_EINVAL, smma_vec_header_add(&h, "g", SMMA_VT_U8, false, false, 1, &err),
           "a 17th field is refused (%s)", err.msg);
    smma_vec_header_init(&h);
    strcpy(h.suite, "decode.e4m3");
    smma_vec_header_add(&h, "code", SMMA_VT_E4M3, false, false, 1, NULL);
    ok(smma_vec_header_check(&h, &err) == SMMA_EINVAL && strstr(err.msg, "no output") != NULL,
       "a header without outputs is refused (%s)", err.msg);
    smma_vec_header_add(&h, "a", SMMA_VT_U8, true, false, 4000, NULL);
    smma_vec_header_add(&h, "b", SMMA_VT_U8, true, false, 100, NULL);
    ok(smma_vec_header_check(&h, &err) == SMMA_EINVAL && strstr(err.msg, "'b'") != NULL,
       "more than 4096 scalar tokens per case are refused (%s)", err.msg);
}

/* ------------------------------------------------------------------ writer */

static const char example_text[] =
    "softmma-vectors 1\n"
    "suite encode.e4m3.rn.cuda\n"
    "generator softmma gen encode.e4m3.rn.cuda --level 1 --seed 1\n"
    "seed 1\n"
    "level 1\n"
    "profile cuda\n"
    "model -\n"
    "in x:fp32 sat:u8\n"
    "out code:e4m3\n"
    "cases 2\n"
    "# two cases\n"
    "3f800000 01 38\n"
    "43e80000 00 7f\n"
    "end\n";

/* A suite of blocks: in scalars, an out scalar, an array and two blocks. */
static const char block_text[] =
    "softmma-vectors 1\n"
    "suite gemm.test.exact-rn\n"
    "generator -\n"
    "seed 0\n"
    "level 2\n"
    "profile -\n"
    "model exact-rn\n"
    "in m:u16 sa:e8m0[2]\n"
    "out flag:u8\n"
    "block in a:e2m1\n"
    "block out d:fp32\n"
    "cases 2\n"
    "case 0 0002 7f 80 00\n"
    "a 2 3\n"
    "0 1 2\n"
    "f e d\n"
    "d 1 1\n"
    "3f800000\n"
    "case 1 0001 00 ff 01\n"
    "a 1 1\n"
    "7\n"
    "d 1 2\n"
    "00000000 7fc00000\n"
    "end\n";

static smma_vec_writer *
example_writer(void)
{
    smma_vec_header h;
    smma_vec_writer *w;
    uint64_t rows[2][3] = { { 0x3f800000u, 1, 0x38 }, { 0x43e80000u, 0, 0x7f } };

    example_header(&h);
    if (smma_vec_writer_new(&h, &w, NULL) != SMMA_OK ||
        smma_vec_put_comment(w, "two cases", NULL) != SMMA_OK ||
        smma_vec_put_row(w, rows[0], NULL) != SMMA_OK ||
        smma_vec_put_row(w, rows[1], NULL) != SMMA_OK)
        bail("cannot write the example");
    return w;
}

static smma_vec_writer *
block_writer(void)
{
    smma_vec_header h;
    smma_vec_writer *w;
    smma_vec_case c;
    uint64_t s0[4] = { 2, 0x7f, 0x80, 0 }, s1[4] = { 1, 0, 0xff, 1 };
    uint64_t a0[6] = { 0, 1, 2, 0xf, 0xe, 0xd }, d0[1] = { 0x3f800000u }, a1[1] = { 7 };
    uint64_t d1[2] = { 0, 0x7fc00000u };
    int fa, fd;

    smma_vec_header_init(&h);
    strcpy(h.suite, "gemm.test.exact-rn");
    strcpy(h.model, "exact-rn");
    h.level = 2;
    if (smma_vec_header_add(&h, "m", SMMA_VT_U16, false, false, 1, NULL) != SMMA_OK ||
        smma_vec_header_add(&h, "a", SMMA_VT_E2M1, false, true, 0, NULL) != SMMA_OK ||
        smma_vec_header_add(&h, "sa", SMMA_VT_E8M0, false, false, 2, NULL) != SMMA_OK ||
        smma_vec_header_add(&h, "d", SMMA_VT_FP32, true, true, 0, NULL) != SMMA_OK ||
        smma_vec_header_add(&h, "flag", SMMA_VT_U8, true, false, 1, NULL) != SMMA_OK ||
        smma_vec_header_check(&h, NULL) != SMMA_OK ||
        smma_vec_writer_new(&h, &w, NULL) != SMMA_OK)
        bail("cannot build the block header");
    /* Block i of a case is field i in token order: m sa flag a d. */
    fa = smma_vec_field_index(&h, "a");
    fd = smma_vec_field_index(&h, "d");
    if (fa != 3 || fd != 4)
        bail("fields not in token order: a %d, d %d", fa, fd);
    memset(&c, 0, sizeof(c));
    c.scalars = s0;
    c.blocks[fa] = (smma_vec_block) { 2, 3, a0 };
    c.blocks[fd] = (smma_vec_block) { 1, 1, d0 };
    if (smma_vec_put_case(w, &c, NULL) != SMMA_OK)
        bail("cannot write case 0");
    c.scalars = s1;
    c.blocks[fa] = (smma_vec_block) { 1, 1, a1 };
    c.blocks[fd] = (smma_vec_block) { 1, 2, d1 };
    if (smma_vec_put_case(w, &c, NULL) != SMMA_OK)
        bail("cannot write case 1");
    return w;
}

static void
check_writer(void)
{
    smma_vec_writer *w = example_writer(), *w2 = example_writer();
    const char *text, *text2;
    size_t len, len2;
    smma_error err;
    uint64_t bad[3] = { 0x3f800000u, 0x100, 0x38 };
    smma_vec_case c;

    ok(smma_vec_finish(w, &text, &len, &err) == SMMA_OK && len == strlen(example_text) &&
           memcmp(text, example_text, len) == 0,
       "the example is written as softmma/vectors.h shows it");
    if (len != strlen(example_text) || memcmp(text, example_text, len) != 0)
        diag("got:\n%.*s", (int) len, text);
    ok(smma_vec_put_row(w, bad, &err) == SMMA_EINVAL && strstr(err.msg, "finished") != NULL,
       "no case after finish (%s)", err.msg);
    ok(smma_vec_put_row(w2, bad, &err) == SMMA_ERANGE && strstr(err.msg, "'sat'") != NULL &&
           strstr(err.msg, "0x100") != NULL,
       "0x100 does not fit u8: ERANGE naming the field (%s)", err.msg);
    ok(smma_vec_finish(w2, &text2, &len2, &err) == SMMA_OK && len2 == len &&
           memcmp(text, text2, len) == 0,
       "the refused case left nothing behind: the same bytes as the first writer");
    smma_vec_writer_free(w);
    smma_vec_writer_free(w2);

    w = block_writer();
    ok(smma_vec_finish(w, &text, &len, &err) == SMMA_OK && len == strlen(block_text) &&
           memcmp(text, block_text, len) == 0,
       "a suite of blocks is written as tagged blocks after 'case N' lines");
    if (len != strlen(block_text) || memcmp(text, block_text, len) != 0)
        diag("got:\n%.*s", (int) len, text);
    smma_vec_writer_free(w);

    w = block_writer();
    memset(&c, 0, sizeof(c));
    c.scalars = bad;
    ok(smma_vec_put_case(w, &c, &err) == SMMA_EINVAL && strstr(err.msg, "'a'") != NULL,
       "a block of 0 x 0 values is refused (%s)", err.msg);
    ok(smma_vec_put_row(w, bad, &err) == SMMA_EINVAL && strstr(err.msg, "blocks") != NULL,
       "put_row on a suite of blocks is refused (%s)", err.msg);
    ok(smma_vec_put_comment(w, "two\nlines", &err) == SMMA_EINVAL,
       "a comment with a newline is refused (%s)", err.msg);
    smma_vec_writer_free(w);
}

/* ------------------------------------------------------------------ reader */

/* Reads a whole text; returns the status and the number of cases read. */
static int
read_all(const char *text, size_t len, const char *name, smma_error *err, size_t *ncases)
{
    smma_vec_reader *r;
    const smma_vec_case *c;
    int rc = smma_vec_open_mem(text, len, name, &r, err);

    *ncases = 0;
    if (rc != SMMA_OK)
        return rc;
    while ((rc = smma_vec_next(r, &c, err)) == SMMA_OK && c != NULL)
        (*ncases)++;
    smma_vec_close(r);
    return rc;
}

/* Reads text and writes what was read with a new writer. */
static int
rewrite(const char *text, size_t len, smma_vec_writer **out, smma_error *err)
{
    smma_vec_reader *r;
    const smma_vec_case *c;
    int rc = smma_vec_open_mem(text, len, "rewrite", &r, err);

    if (rc != SMMA_OK)
        return rc;
    rc = smma_vec_writer_new(smma_vec_header_of(r), out, err);
    while (rc == SMMA_OK && (rc = smma_vec_next(r, &c, err)) == SMMA_OK && c != NULL)
        rc = smma_vec_put_case(*out, c, err);
    smma_vec_close(r);
    return rc;
}

static void
check_reader(void)
{
    smma_vec_reader *r;
    const smma_vec_case *c;
    const smma_vec_header *h;
    smma_vec_writer *w;
    smma_error err;
    const char *text;
    size_t len, n;
    char *upper;

    ok(smma_vec_open_mem(block_text, strlen(block_text), "blocks", &r, &err) == SMMA_OK,
       "the block suite opens");
    h = smma_vec_header_of(r);
    ok(strcmp(h->suite, "gemm.test.exact-rn") == 0 && strcmp(h->model, "exact-rn") == 0 &&
           h->level == 2 && h->cases == 2 && h->nscalars == 4 && h->nblocks == 2 &&
           strcmp(h->fields[1].name, "sa") == 0 && h->fields[1].count == 2 &&
           h->fields[3].block && h->fields[4].out,
       "its header: names, level, counts, fields in token order");
    ok(smma_vec_next(r, &c, &err) == SMMA_OK && c != NULL && c->index == 0 && c->line == 13 &&
           c->scalars[0] == 2 && c->scalars[2] == 0x80 && c->blocks[3].rows == 2 &&
           c->blocks[3].cols == 3 && c->blocks[3].v[3] == 0xf && c->blocks[4].v[0] == 0x3f800000u,
       "case 0: line 13, scalars, a 2 x 3 block (row 1 starts with f)");
    ok(smma_vec_next(r, &c, &err) == SMMA_OK && c != NULL && c->index == 1 &&
           c->blocks[4].cols == 2 && c->blocks[4].v[1] == 0x7fc00000u,
       "case 1: a 1 x 2 output block");
    ok(smma_vec_next(r, &c, &err) == SMMA_OK && c == NULL, "then the end");
    ok(smma_vec_next(r, &c, &err) == SMMA_OK && c == NULL, "and the end again");
    smma_vec_close(r);

    ok(rewrite(block_text, strlen(block_text), &w, &err) == SMMA_OK &&
           smma_vec_finish(w, &text, &len, &err) == SMMA_OK && len == strlen(block_text) &&
           memcmp(text, block_text, len) == 0,
       "read and written again: the same bytes");
    smma_vec_writer_free(w);

    upper = strdup(example_text);
    if (upper == NULL)
        sysbail("no memory");
    memcpy(strstr(upper, "43e80000 00 7f"), "43E80000 00 7F", 14);
    ok(read_all(upper, strlen(upper), "upper", &err, &n) == SMMA_OK && n == 2,
       "uppercase hex digits are read");
    free(upper);

    ok(smma_vec_open("/nonexistent/x.vec", &r, &err) == SMMA_EIO &&
           strstr(err.msg, "/nonexistent/x.vec") != NULL,
       "a missing file: EIO naming it (%s)", err.msg);
    {
        FILE *f = tmpfile();

        if (f == NULL)
            sysbail("tmpfile");
        fputs(example_text, f);
        rewind(f);
        ok(smma_vec_open_file(f, "stream", &r, &err) == SMMA_OK &&
               smma_vec_next(r, &c, &err) == SMMA_OK && c != NULL && c->scalars[2] == 0x38,
           "a stream is read with smma_vec_open_file");
        smma_vec_close(r);
        fclose(f);
    }
}

/* ------------------------------------------------------------------ malformed */

struct bad {
    const char *what;
    const char *text;   /* NULL: built by the test */
    unsigned line;
    const char *needle;
};

#define HEAD "softmma-vectors 1\nsuite decode.e2m3\n"
#define FIELDS "in code:e2m3\nout value:fp32\n"

static const struct bad bads[] = {
    { "empty file", "", 1, "empty file" },
    { "not a vector file", "hello\n", 1, "not a softmma vector file" },
    { "version mismatch", "softmma-vectors 2\n", 1, "format version 2 is not supported" },
    { "malformed version", "softmma-vectors one\n", 1, "malformed format version" },
    { "truncated line", HEAD FIELDS "cases 1\n01 3d80", 6, "no newline" },
    { "truncated file", HEAD FIELDS "cases 2\n01 3d800000\n", 6,
      "after 1 of 2 cases (truncated?)" },
    { "bad hex", HEAD FIELDS "cases 1\n01 3d80000g\nend\n", 6, "bad hex token '3d80000g'" },
    { "short token", HEAD FIELDS "cases 1\n01 3d8000\nend\n", 6, "has 6 hex digits" },
    { "value past the type", HEAD FIELDS "cases 1\n40 3d800000\nend\n", 6,
      "0x40 of field 'code' does not fit e2m3" },
    { "too few tokens", HEAD FIELDS "cases 1\n01\nend\n", 6, "expected 2 tokens, found 1" },
    { "too many tokens", HEAD FIELDS "cases 1\n01 3d800000 00\nend\n", 6,
      "expected 2 tokens, found more" },
    { "unknown suite", "softmma-vectors 1\nsuite frobnicate.e4m3\n", 2,
      "unknown suite 'frobnicate.e4m3'" },
    { "malformed suite name", "softmma-vectors 1\nsuite decode\n", 2, "FAMILY.PART" },
    { "absurd case count", HEAD FIELDS "cases 99999999999\n", 5, "malformed case count" },
    { "absurd array count", HEAD "in code:e2m3[5000]\n", 3, "not in 1..4096" },
    { "absurd block size", HEAD "block out v:u8\ncases 1\ncase 0\nv 100000 2\n", 6,
      "not two numbers in 1..65536" },
    { "block past the limit", HEAD "block out v:u8\ncases 1\ncase 0\nv 65536 65536\n", 6,
      "more than the limit" },
    { "binary garbage", "softmma-vectors 1\n\x89PNG\x1a\n", 2, "byte 0x89 at column 1" },
    { "NUL byte", NULL, 3, "NUL byte at column 3" },
    { "carriage return", "softmma-vectors 1\r\n", 1, "carriage return" },
    { "overlong line", NULL, 3, "line longer than 131072 bytes" },
    { "unknown header line", HEAD "colour blue\n", 3, "unknown header line 'colour'" },
    { "second suite line", HEAD "suite decode.e4m3\n", 3, "second 'suite' line" },
    { "field twice", HEAD "in code:e2m3 code:u8\n", 3, "declared twice" },
    { "unknown type", HEAD "in code:e9m9\n", 3, "unknown type 'e9m9'" },
    { "no output", HEAD "in code:e2m3\ncases 0\n", 4, "no output field" },
    { "no cases line", HEAD FIELDS, 4, "no 'cases' line" },
    { "cases before suite", "softmma-vectors 1\n" FIELDS "cases 0\n", 4, "no 'suite' line" },
    { "end too early", HEAD FIELDS "cases 2\n01 3d800000\nend\n", 7, "'end' after 1 cases" },
    { "no end", HEAD FIELDS "cases 1\n01 3d800000\n02 3e000000\n", 7, "expected 'end'" },
    { "text after end", HEAD FIELDS "cases 0\nend\nmore\n", 7, "text after 'end'" },
    { "no case line", HEAD "block out v:u8\ncases 1\n00\n", 5, "expected 'case 0'" },
    { "wrong case number", HEAD "block out v:u8\ncases 1\ncase 1\n", 5, "case number 0" },
    { "wrong block name", HEAD "block out v:u8\ncases 1\ncase 0\nw 1 1\n", 6,
      "expected the line 'v ROWS COLS'" },
    { "short block row", HEAD "block out v:u8\ncases 1\ncase 0\nv 2 2\n00 01\n02\n", 8,
      "row 1: expected 2 tokens, found 1" },
    { "truncated block", HEAD "block out v:u8\ncases 1\ncase 0\nv 2 2\n00 01\n", 7,
      "row 1 of 2" },
};

/* Builds the texts the table cannot hold: NUL bytes, an overlong line. */
static char *
build_bad(const struct bad *b, size_t *len)
{
    char *t;

    if (b->text != NULL) {
        *len = strlen(b->text);
        return strdup(b->text);
    }
    if (strcmp(b->what, "NUL byte") == 0) {
        static const char nul[] = HEAD "in\0code:e2m3\n";

        *len = sizeof(nul) - 1;
        t = malloc(*len);
        if (t != NULL)
            memcpy(t, nul, *len);
        return t;
    }
    *len = strlen(HEAD) + SMMA_VEC_MAX_LINE + 2;
    t = malloc(*len);
    if (t != NULL) {
        strcpy(t, HEAD);
        memset(t + strlen(HEAD), '#', SMMA_VEC_MAX_LINE + 1);
        t[*len - 1] = '\n';
    }
    return t;
}

static void
check_malformed(void)
{
    size_t i, n;

    for (i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
        const struct bad *b = &bads[i];
        smma_error err;
        char prefix[64], *text;
        size_t len;
        int rc;

        text = build_bad(b, &len);
        if (text == NULL)
            sysbail("no memory");
        err.msg[0] = '\0';
        rc = read_all(text, len, "bad.vec", &err, &n);
        snprintf(prefix, sizeof(prefix), "bad.vec:%u: ", b->line);
        ok(rc == SMMA_EPARSE && strncmp(err.msg, prefix, strlen(prefix)) == 0 &&
               strstr(err.msg, b->needle) != NULL,
           "%s: refused at line %u (%s)", b->what, b->line, err.msg);
        free(text);
    }
    /* After an error every call repeats it. */
    {
        smma_vec_reader *r;
        const smma_vec_case *c;
        smma_error e1, e2;
        const char *t = HEAD FIELDS "cases 2\n01 zz\n02 3e000000\nend\n";

        if (smma_vec_open_mem(t, strlen(t), "sticky", &r, &e1) != SMMA_OK)
            bail("sticky: %s", e1.msg);
        ok(smma_vec_next(r, &c, &e1) == SMMA_EPARSE && c == NULL &&
               smma_vec_next(r, &c, &e2) == SMMA_EPARSE && strcmp(e1.msg, e2.msg) == 0,
           "after an error the reader repeats it (%s)", e2.msg);
        smma_vec_close(r);
    }
}

/* ------------------------------------------------------------------ mutations */

/* Random mutations of valid texts: each is read to the end or refused with
 * SMMA_EPARSE and a "mut:LINE: " message; a text read to the end is
 * rewritten and read again to the same bytes. */
static void
check_mutations(void)
{
    const char *texts[2] = { example_text, block_text };
    size_t n = test_level() == 0 ? 300 : 5000, i, okay = 0, refused = 0, bad = 0;
    tap_rng rng;

    tap_rng_seed(&rng, 2026);
    for (i = 0; i < n; i++) {
        const char *src = texts[i % 2];
        size_t len = strlen(src), j, k, ncases;
        char buf[2048];
        smma_error err;
        int rc;

        memcpy(buf, src, len);
        for (k = 1 + tap_rng_next(&rng) % 3; k > 0; k--) {
            uint64_t r = tap_rng_next(&rng);
            size_t at = len ? (size_t) (r % len) : 0;

            switch ((r >> 32) % 5) {
            case 0: /* flip a bit */
                buf[at] = (char) (buf[at] ^ (1 << ((r >> 40) % 8)));
                break;
            case 1: /* truncate */
                len = at;
                break;
            case 2: /* delete a byte */
                if (len > 0) {
                    memmove(buf + at, buf + at + 1, len - at - 1);
                    len--;
                }
                break;
            case 3: /* insert a byte from a small alphabet */
                if (len < sizeof(buf) - 1) {
                    static const char alpha[] = "0f \n#x:[]-9\t";

                    memmove(buf + at + 1, buf + at, len - at);
                    buf[at] = alpha[(r >> 40) % (sizeof(alpha) - 1)];
                    len++;
                }
                break;
            default: /* duplicate a span */
                j = (size_t) ((r >> 40) % 40);
                if (at + j <= len && len + j < sizeof(buf)) {
                    memmove(buf + at + j, buf + at, len - at);
                    len += j;
                }
                break;
            }
        }
        err.msg[0] = '\0';
        rc = read_all(buf, len, "mut", &err, &ncases);
        if (rc == SMMA_OK) {
            smma_vec_writer *w = NULL, *w2 = NULL;
            const char *t1, *t2;
            size_t l1, l2;

            okay++;
            if (rewrite(buf, len, &w, &err) != SMMA_OK ||
                smma_vec_finish(w, &t1, &l1, &err) != SMMA_OK ||
                rewrite(t1, l1, &w2, &err) != SMMA_OK ||
                smma_vec_finish(w2, &t2, &l2, &err) != SMMA_OK || l1 != l2 ||
                memcmp(t1, t2, l1) != 0) {
                if (bad++ < 5)
                    diag("mutation %zu: read, but not rewritten the same: %s", i, err.msg);
            }
            smma_vec_writer_free(w);
            smma_vec_writer_free(w2);
        } else if (rc == SMMA_EPARSE && strncmp(err.msg, "mut:", 4) == 0 &&
                   err.msg[4] >= '0' && err.msg[4] <= '9') {
            refused++;
        } else if (bad++ < 5) {
            diag("mutation %zu: status %d, message '%s'", i, rc, err.msg);
        }
    }
    ok(bad == 0, "%zu mutated texts: %zu read and rewritten stably, %zu refused with "
       "'mut:LINE: message'", n, okay, refused);
}

/* ------------------------------------------------------------------ saving */

static size_t
count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    size_t n = 0;

    while (d != NULL && (de = readdir(d)) != NULL)
        if (de->d_name[0] != '.')
            n++;
    if (d != NULL)
        closedir(d);
    return n;
}

static void
check_save(void)
{
    const char *tmp = getenv("TMPDIR");
    char dir[512], path[600], sub[600];
    smma_vec_writer *w = example_writer();
    smma_vec_reader *r;
    const smma_vec_case *c;
    smma_error err;
    size_t n = 0;
    FILE *f;

    snprintf(dir, sizeof(dir), "%s/smma-vectors-t.XXXXXX", tmp != NULL ? tmp : "/tmp");
    if (mkdtemp(dir) == NULL)
        sysbail("mkdtemp");
    snprintf(path, sizeof(path), "%s/example.vec", dir);
    f = fopen(path, "w");
    if (f == NULL)
        sysbail("cannot write %s", path);
    fputs("old contents\n", f);
    fclose(f);
    ok(smma_vec_save(w, path, &err) == SMMA_OK, "saved over an old file");
    ok(smma_vec_open(path, &r, &err) == SMMA_OK, "and read back");
    while (smma_vec_next(r, &c, &err) == SMMA_OK && c != NULL)
        n++;
    smma_vec_close(r);
    is_int(2, (long long) n, "both cases are there");
    is_int(1, (long long) count_entries(dir), "no temporary file stays behind");
    /* A directory cannot be replaced by a file: the rename fails. */
    snprintf(sub, sizeof(sub), "%s/adir", dir);
    if (mkdir(sub, 0700) != 0)
        sysbail("mkdir %s", sub);
    ok(smma_vec_save(w, sub, &err) == SMMA_EIO && strstr(err.msg, sub) != NULL,
       "saving over a directory fails with EIO naming it (%s)", err.msg);
    is_int(2, (long long) count_entries(dir), "and its temporary file is removed");
    snprintf(sub, sizeof(sub), "%s/missing/x.vec", dir);
    ok(smma_vec_save(w, sub, &err) == SMMA_EIO && strstr(err.msg, "temporary") != NULL,
       "saving into a missing directory fails with EIO (%s)", err.msg);
    smma_vec_writer_free(w);
    snprintf(sub, sizeof(sub), "%s/adir", dir);
    rmdir(sub);
    unlink(path);
    rmdir(dir);
}

int
main(void)
{
    plan_lazy();
    check_sha256();
    check_types_and_names();
    check_headers();
    check_writer();
    check_reader();
    check_malformed();
    check_mutations();
    check_save();
    return exit_status();
}
