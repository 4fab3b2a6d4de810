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
 *     or refused with a message, never anything else;
 *   - the committed fragment, mma and gemm suites of vectors/, read back
 *     and checked with the simulator's inverse layout functions and
 *     smma_gemm, independently of the generator; rows checked by hand
 *     against the PTX ISA's figures.
 */
#include <config.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <softmma/fragment.h>
#include <softmma/gemm.h>
#include <softmma/ldmatrix.h>
#include <softmma/mma_bs.h>
#include <softmma/tmem.h>
#include <softmma/vectors.h>
#include <softmma/wgmma.h>

#include "tap/basic.h"
#include "tap/failalloc.h"

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
    /* Bytes that differ from their neighbours, fed in random pieces (block
     * boundaries cut anywhere): the digest of the whole in one piece. */
    for (at = 0; at < 1000000; at++)
        big[at] = (char) (at * 7 + (at >> 8));
    smma_sha256_hex(big, 1000000, hex);
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
    ok(bad == 0, "one million varied bytes in random pieces: the digest of the whole, 20 "
       "times");
    memset(hex, 'x', sizeof(hex));
    smma_sha256_hex("abc", 3, hex);
    ok(hex[64] == '\0' && strlen(hex) == 64, "smma_sha256_hex ends its 64 digits with a NUL");
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
        { "Encode.e4m3", "malformed suite name" },
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
    {
        /* Every type: its name and bits; a token is ceil(bits / 4) hex
         * digits, a raw value ceil(bits / 8) bytes. */
        static const char *const names[SMMA_VT_COUNT] = {
            "e2m1", "e2m3", "e3m2", "e4m3", "e5m2", "e8m0", "ue4m3", "bf16",
            "fp16", "fp32", "fp64", "u8",   "u16",  "u32",  "u64"
        };
        static const unsigned bits[SMMA_VT_COUNT] = { 4,  6,  6, 8, 8,  8,  8, 16,
                                                      16, 32, 64, 8, 16, 32, 64 };
        unsigned nbad = 0;

        for (i = 0; i < SMMA_VT_COUNT; i++) {
            const smma_vec_type_info *ti = smma_vec_type_get((smma_vec_type) i);

            nbad += ti == NULL || ti->id != (smma_vec_type) i || strcmp(ti->name, names[i]) != 0 ||
                   ti->bits != bits[i] || ti->digits != (bits[i] + 3) / 4 ||
                   ti->bytes != (bits[i] + 7) / 8;
        }
        ok(nbad == 0, "the %d types: names, bits, hex digits and bytes (%u differ)",
           (int) SMMA_VT_COUNT, nbad);
    }
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
    {
        /* The longest suite name: 127 bytes and its NUL (SMMA_VEC_TEXT_MAX). */
        char longest[SMMA_VEC_TEXT_MAX + 1];

        memset(longest, 'x', sizeof(longest));
        memcpy(longest, "decode.", 7);
        longest[SMMA_VEC_TEXT_MAX - 1] = '\0';
        ok(smma_vec_suite_check(longest, &err) == SMMA_OK, "a suite name of 127 bytes");
        longest[SMMA_VEC_TEXT_MAX - 1] = 'x';
        longest[SMMA_VEC_TEXT_MAX] = '\0';
        ok(smma_vec_suite_check(longest, &err) == SMMA_EINVAL &&
               strstr(err.msg, "malformed suite name") != NULL,
           "... one of 128 refused");
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
    {
        /* Names that are not identifiers: a leading digit (one digit alone
         * too), none, a leading '-'. */
        static const char *const bad_names[] = { "1x", "7", "", "-y" };

        for (i = 0; i < sizeof(bad_names) / sizeof(bad_names[0]); i++)
            is_int(SMMA_EINVAL,
                   smma_vec_header_add(&h, bad_names[i], SMMA_VT_U8, false, false, 1, &err),
                   "field name '%s' is refused (%s)", bad_names[i], err.msg);
    }
    ok(smma_vec_field_index(&h, "code") == 2 && smma_vec_field_index(&h, "y") == -1 &&
           smma_vec_field_index(&h, NULL) == -1,
       "smma_vec_field_index: code is field 2; y and no name are -1");
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

    /* The header's own fields: a profile name, the level, a field's name. */
    example_header(&h);
    ok(smma_vec_header_add(&h, "zz_Z9", SMMA_VT_U8, false, false, 1, &err) == SMMA_OK,
       "a name of z, Z, _ and 9 is an identifier (%s)", err.msg);
    {
        /* The longest field name: 31 bytes and its NUL (SMMA_VEC_NAME_MAX). */
        char longest[SMMA_VEC_NAME_MAX + 1];

        memset(longest, 'n', sizeof(longest));
        longest[SMMA_VEC_NAME_MAX - 1] = '\0';
        ok(smma_vec_header_add(&h, longest, SMMA_VT_U8, false, false, 1, &err) == SMMA_OK,
           "a field name of 31 bytes (%s)", err.msg);
        longest[SMMA_VEC_NAME_MAX - 1] = 'n';
        longest[SMMA_VEC_NAME_MAX] = '\0';
        ok(smma_vec_header_add(&h, longest, SMMA_VT_U8, false, false, 1, &err) == SMMA_EINVAL,
           "... one of 32 refused (%s)", err.msg);
    }
    strcpy(h.profile, "Cuda");
    ok(smma_vec_header_check(&h, &err) == SMMA_EINVAL &&
           strcmp(err.msg, "malformed profile name 'Cuda'") == 0,
       "a profile name with a capital is refused (%s)", err.msg);
    strcpy(h.profile, "-");
    h.level = 9;
    ok(smma_vec_header_check(&h, &err) == SMMA_OK, "level 9 is taken (%s)", err.msg);
    h.level = 10;
    ok(smma_vec_header_check(&h, &err) == SMMA_EINVAL && strstr(err.msg, "level above 9"),
       "level 10 is refused (%s)", err.msg);
    h.level = 1;
    strcpy(h.fields[0].name, "1x");
    ok(smma_vec_header_check(&h, &err) == SMMA_EINVAL &&
           strcmp(err.msg, "field 0: bad name or type") == 0,
       "a field whose name was spoiled after it was added is refused (%s)", err.msg);
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
    {
        /* One scalar field and a block: a case without its scalars. */
        smma_vec_header h1;

        smma_vec_header_init(&h1);
        strcpy(h1.suite, "gemm.test.exact-rn");
        if (smma_vec_header_add(&h1, "m", SMMA_VT_U16, false, false, 1, &err) != SMMA_OK ||
            smma_vec_header_add(&h1, "d", SMMA_VT_FP32, true, true, 0, &err) != SMMA_OK ||
            smma_vec_writer_new(&h1, &w, &err) != SMMA_OK)
            bail("one-scalar header: %s", err.msg);
        memset(&c, 0, sizeof(c));
        ok(smma_vec_put_case(w, &c, &err) == SMMA_EINVAL && strcmp(err.msg, "no case") == 0,
           "a case without the scalars of a one-scalar suite is refused (%s)", err.msg);
        smma_vec_writer_free(w);
    }
    {
        /* The longest comment: its line, "# " and the text, SMMA_VEC_MAX_LINE
         * bytes; and the largest block, SMMA_VEC_MAX_BLOCK values. */
        char *long_text = malloc(SMMA_VEC_MAX_LINE);
        uint64_t *v = calloc(SMMA_VEC_MAX_BLOCK, sizeof(*v)), s0[4] = { 2, 0x7f, 0x80, 0 };
        uint64_t d0[1] = { 0x3f800000u };

        if (long_text == NULL || v == NULL)
            sysbail("out of memory");
        memset(long_text, 'c', SMMA_VEC_MAX_LINE);
        long_text[SMMA_VEC_MAX_LINE - 2] = '\0';
        w = example_writer();
        ok(smma_vec_put_comment(w, long_text, &err) == SMMA_OK,
           "a comment of SMMA_VEC_MAX_LINE - 2 bytes (%s)", err.msg);
        long_text[SMMA_VEC_MAX_LINE - 2] = 'c';
        long_text[SMMA_VEC_MAX_LINE - 1] = '\0';
        ok(smma_vec_put_comment(w, long_text, &err) == SMMA_EINVAL,
           "... one byte more is refused (%s)", err.msg);
        smma_vec_writer_free(w);
        w = block_writer();
        memset(&c, 0, sizeof(c));
        c.scalars = s0;
        c.blocks[3] = (smma_vec_block) { 1024, SMMA_VEC_MAX_BLOCK / 1024, v };
        c.blocks[4] = (smma_vec_block) { 1, 1, d0 };
        ok(smma_vec_put_case(w, &c, &err) == SMMA_OK,
           "a block of SMMA_VEC_MAX_BLOCK values (%s)", err.msg);
        smma_vec_writer_free(w);
        free(long_text);
        free(v);
    }
    {
        /* Comments of 1 and 0 bytes: "# x" and "#". */
        const char *out;
        size_t out_len;

        w = example_writer();
        ok(smma_vec_put_comment(w, "x", &err) == SMMA_OK &&
               smma_vec_put_comment(w, "", &err) == SMMA_OK &&
               smma_vec_finish(w, &out, &out_len, &err) == SMMA_OK &&
               strstr(out, "\n# x\n#\n") != NULL,
           "comments of one byte and of none: '# x' and '#'");
        smma_vec_writer_free(w);
    }
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
    { "malformed version", "softmma-vectors one\n", 1, "malformed format version 'one'" },
    { "empty generator", HEAD "generator \n", 3, "generator command empty" },
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
    { "level 10", HEAD "level 10\n", 3, "malformed level '10' (0 to 9)" },
    { "block line of 4 words", HEAD "block in v:u8 x\n", 3, "malformed block line" },
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
    {
        struct stat st;

        ok(stat(path, &st) == 0 && (st.st_mode & 0777) == 0644,
           "the saved file is readable by all (mode 0644, not mkstemp's 0600)");
    }
    {
        /* With standard input closed the temporary file is descriptor 0. */
        int in = dup(0), rc;

        if (in < 0)
            sysbail("dup");
        close(0);
        rc = smma_vec_save(w, path, &err);
        if (dup2(in, 0) < 0)
            sysbail("dup2");
        close(in);
        ok(rc == SMMA_OK && count_entries(dir) == 1,
           "saved with descriptor 0 free, the temporary file's (%s)", rc ? err.msg : "ok");
    }
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

/* ------------------------------------------------------------------ committed suites */

/* The committed fragment, mma and gemm suites under vectors/, read with
 * the library's reader and checked against the simulator's and the
 * reference's own functions, independently of the generator (tools/):
 * every fragment row against the inverse layout function, which is
 * written separately from the forward one, with each tile covered once;
 * every mma case by unpacking its registers or memory images as
 * doc/vectors.md describes them and computing D with smma_gemm under the
 * suite's model; every gemm case the same way, and the exact class under
 * every model that can compute it.  At TEST_LEVEL 0 every fourth file. */

/* The field value or block of a case, by name (the name must exist). */
static uint64_t
scal(const smma_vec_header *h, const smma_vec_case *c, const char *name)
{
    int fi = smma_vec_field_index(h, name);

    if (fi < 0)
        bail("%s: no field '%s'", h->suite, name);
    return c->scalars[h->fields[fi].offset];
}

static const smma_vec_block *
blk(const smma_vec_header *h, const smma_vec_case *c, const char *name)
{
    int fi = smma_vec_field_index(h, name);

    if (fi < 0 || !h->fields[fi].block)
        bail("%s: no block '%s'", h->suite, name);
    return &c->blocks[fi];
}

/* A block's values as 32-bit words. */
static uint32_t *
words(const smma_vec_block *b)
{
    uint32_t *w = malloc(b->rows * b->cols * sizeof(*w) + 1);
    size_t i;

    if (w == NULL)
        sysbail("no memory");
    for (i = 0; i < b->rows * b->cols; i++)
        w[i] = (uint32_t) b->v[i];
    return w;
}

/* What a check of one case reports. */
typedef long (*case_fn)(const smma_vec_header *h, const smma_vec_case *c, void *ctx);

/* Reads every case of a committed file through fn; returns the number of
 * cases and adds fn's count of defects to *bad. */
static size_t
each_case(const char *path, case_fn fn, void *ctx, long *bad)
{
    smma_vec_reader *r;
    const smma_vec_case *c;
    smma_error err;
    size_t n = 0;

    if (smma_vec_open(path, &r, &err) != SMMA_OK)
        bail("%s", err.msg);
    while (smma_vec_next(r, &c, &err) == SMMA_OK && c != NULL) {
        *bad += fn(smma_vec_header_of(r), c, ctx);
        n++;
    }
    if (err.msg[0] != '\0' && c != NULL)
        bail("%s", err.msg);
    smma_vec_close(r);
    return n;
}

/* ---- fragments */

enum frag_kind { FK_MMA, FK_BS_REGS, FK_BS_SF, FK_WGMMA, FK_MATRIX, FK_LDST, FK_TMEM_D,
                 FK_TMEM_SF };

struct frag_check {
    enum frag_kind kind;
    smma_frag_layout l;
    smma_mma_bs bs;
    smma_operand op;
    smma_wgmma_frag wf;
    smma_matrix_op mo;
    smma_tmem_ldst ldst;
    smma_tmem_dlayout dl;
    smma_tmem_sflayout sl;
    unsigned rows, cols;        /* the extent `seen` covers */
    unsigned char *seen;
    size_t expect;              /* the number of cases a whole layout has */
};

/* Marks cell (r, c) as covered; a defect when outside or covered twice. */
static long
cover(struct frag_check *x, unsigned r, unsigned c)
{
    if (r >= x->rows || c >= x->cols || x->seen[r * x->cols + c]++)
        return 1;
    return 0;
}

static long
frag_case(const smma_vec_header *h, const smma_vec_case *c, void *ctx)
{
    struct frag_check *x = ctx;
    const uint64_t *v = c->scalars;
    unsigned a = 99, b = 99, e = 99, m = 99, k = 99, p = 99;
    smma_mma_bs_sel sel = { 0, 0, 0, 0 };

    (void) h;
    switch (x->kind) {
    case FK_MMA:
    case FK_BS_REGS:
        if (smma_frag_slot(&x->l, (unsigned) v[3], (unsigned) v[4], &a, &b, &e) != SMMA_OK)
            return 1;
        return (a != v[0] || b != v[1] || e != v[2]) + cover(x, (unsigned) v[3], (unsigned) v[4]);
    case FK_BS_SF:
        sel = smma_mma_bs_sel_of(x->op, (unsigned) v[0], (unsigned) v[1]);
        if (smma_mma_bs_sf_slot(&x->bs, x->op, &sel, (unsigned) v[4], (unsigned) v[5], &a, &b,
                                NULL) != SMMA_OK)
            return 1;
        return (a != v[2] || b != v[3]) +
               cover(x, (unsigned) (v[0] * 4 + v[1]), (unsigned) (v[4] * 4 + v[5]));
    case FK_WGMMA:
        if (smma_wgmma_slot(&x->wf, (unsigned) v[3], (unsigned) v[4], &a, &b, &e) != SMMA_OK)
            return 1;
        return (a != v[0] || b != v[1] || e != v[2] || v[5] != v[2] * x->wf.elem_bits) +
               cover(x, (unsigned) v[3], (unsigned) v[4]);
    case FK_MATRIX:
        if (smma_matrix_slot(&x->mo, (unsigned) v[3], (unsigned) v[4], (unsigned) v[5], &a, &b,
                             &e) != SMMA_OK)
            return 1;
        return (a != v[0] || b != v[1] || e != v[2] || v[6] != 16 * v[2]) +
               cover(x, (unsigned) (v[3] * 8 + v[4]), (unsigned) v[5]);
    case FK_LDST:
        if (smma_tmem_ldst_slot(&x->ldst, (unsigned) v[3], (unsigned) v[4], &a, &b, &e) !=
            SMMA_OK)
            return 1;
        return (a != v[0] || b != v[1] || e != v[2]) + cover(x, (unsigned) v[3], (unsigned) v[4]);
    case FK_TMEM_D:
        if (smma_tmem_d_elem(&x->dl, (unsigned) v[2], (unsigned) v[3], (unsigned) v[4], &m,
                             &k) != SMMA_OK)
            return 1;
        return (m != v[0] || k != v[1]) + cover(x, (unsigned) (v[2] * 128 + v[3]),
                                                (unsigned) v[4]);
    case FK_TMEM_SF:
        x->sl.sf_id = (unsigned) v[0];
        if (smma_tmem_sf_elem(&x->sl, (unsigned) v[4], (unsigned) v[5], (unsigned) v[6], &m,
                              &k, &p) != SMMA_OK)
            return 1;
        return (m != v[1] || k != v[2] || p != v[3]) +
               cover(x, (unsigned) (v[4] * 8 + v[5]), (unsigned) (v[6] * 4 + v[0]));
    }
    return 1;
}

/* Fills x from a fragment suite's name; false for a name it cannot read. */
static bool
frag_parse(const char *suite, struct frag_check *x)
{
    char instr[128], opn[8];
    const char *rest, *dot = strrchr(suite, '.');
    unsigned u1, u2, u3, i;
    smma_mma_instr mi;
    smma_wgmma_variant wv;

    memset(x, 0, sizeof(*x));
    snprintf(opn, sizeof(opn), "%s", dot + 1);
    if (strncmp(suite, "fragment.mma.", 13) == 0) {
        snprintf(instr, sizeof(instr), "%.*s", (int) (dot - suite - 9), suite + 9);
        x->op = opn[0] == 's' ? (opn[2] == 'a' ? SMMA_OP_A : SMMA_OP_B)
                              : (smma_operand) (opn[0] - 'a');
        if (smma_mma_instr_from_name(instr, &mi, NULL) == SMMA_OK) {
            x->kind = FK_MMA;
            x->l = *smma_frag_layout_get(mi, x->op);
        } else if (smma_mma_bs_from_name(instr, &x->bs, NULL) != SMMA_OK) {
            return false;
        } else if (opn[0] == 's') {
            x->kind = FK_BS_SF;
            x->rows = 16;
            x->cols = 64;
            for (i = 0; i < 16; i++) {
                smma_mma_bs_sel sel = smma_mma_bs_sel_of(x->op, i / 4, i % 4);

                if (smma_mma_bs_sel_check(&x->bs, &sel, NULL) == SMMA_OK)
                    x->expect += (x->op == SMMA_OP_A ? 16 : 8) * x->bs.scale_vec;
            }
            return true;
        } else {
            x->kind = FK_BS_REGS;
            if (smma_mma_bs_layout(&x->bs, x->op, &x->l, NULL) != SMMA_OK)
                return false;
        }
        x->rows = x->l.rows;
        x->cols = x->l.cols;
        x->expect = (size_t) x->rows * x->cols;
        return true;
    }
    if (strncmp(suite, "fragment.wgmma.", 15) == 0) {
        snprintf(instr, sizeof(instr), "%.*s", (int) (dot - suite - 9), suite + 9);
        if (smma_wgmma_from_name(instr, &wv, NULL) != SMMA_OK ||
            smma_wgmma_frag_get(&wv, opn[0] == 'a' ? SMMA_WGMMA_OP_A : SMMA_WGMMA_OP_D, &x->wf,
                                NULL) != SMMA_OK)
            return false;
        x->kind = FK_WGMMA;
        x->rows = x->wf.rows;
        x->cols = x->wf.cols;
        x->expect = (size_t) x->rows * x->cols;
        return true;
    }
    rest = suite + 9;
    if (strncmp(rest, "ldmatrix.x", 10) == 0 || strncmp(rest, "stmatrix.x", 10) == 0) {
        x->kind = FK_MATRIX;
        x->mo.kind = rest[0] == 'l' ? SMMA_LDMATRIX : SMMA_STMATRIX;
        x->mo.num = (unsigned) (rest[10] - '0');
        x->mo.trans = strstr(rest, ".trans") != NULL;
        x->rows = 8 * x->mo.num;
        x->cols = 8;
        x->expect = 64u * x->mo.num;
        return true;
    }
    if (strncmp(rest, "tcgen05.ld.", 11) == 0 || strncmp(rest, "tcgen05.st.", 11) == 0) {
        for (i = 0; i < SMMA_TMEM_SHAPE_COUNT; i++) {
            const char *sn = smma_tmem_shape_name((smma_tmem_shape) i);

            if (strncmp(rest + 11, sn, strlen(sn)) == 0 && rest[11 + strlen(sn)] == '.' &&
                sscanf(rest + 12 + strlen(sn), "x%u", &u1) == 1)
                break;
        }
        if (i == SMMA_TMEM_SHAPE_COUNT)
            return false;
        x->kind = FK_LDST;
        x->ldst.shape = (smma_tmem_shape) i;
        x->ldst.num = u1;
        x->ldst.pack = strstr(rest, "pack") != NULL;
        x->ldst.half_off = i == SMMA_TMEM_16X32BX2 ? u1 * (x->ldst.pack ? 2 : 1) : 0;
        x->rows = smma_tmem_ldst_lanes(&x->ldst);
        x->cols = smma_tmem_ldst_cols(&x->ldst);
        x->expect = 32u * smma_tmem_ldst_regs(&x->ldst) * smma_tmem_ldst_elems(&x->ldst);
        return true;
    }
    if (sscanf(rest, "tcgen05.d.m%un%u.cg%u", &u1, &u2, &u3) == 3) {
        x->kind = FK_TMEM_D;
        x->dl.m = u1;
        x->dl.n = u2;
        x->dl.cta_group = u3;
        x->dl.addr = smma_tmem_addr(strstr(rest, "lane16") ? 16 : 0, 0);
        x->rows = 256;
        x->cols = 512;
        x->expect = (size_t) u1 * u2;
        return true;
    }
    if (sscanf(rest, "tcgen05.sf.%ux.r%u", &u1, &u2) == 2) {
        x->kind = FK_TMEM_SF;
        x->sl.rows = u2;
        x->sl.vec = u1;
        x->rows = 128 * 8;
        x->cols = 16;
        for (i = 0; i < 4; i++) {
            x->sl.sf_id = i;
            if (smma_tmem_sf_check(&x->sl, NULL) == SMMA_OK)
                x->expect += (size_t) u2 * u1 * 4;
        }
        return true;
    }
    return false;
}

/* ---- mma and gemm */

/* The sign bit of a code of format f. */
static uint32_t
sign_bit(smma_format f)
{
    return 1u << (smma_format_info(f)->bits - 1);
}

/* Computes D with smma_gemm (A m x k row-major, B k x n row-major) and
 * compares it with want (m x n); returns the number of differing
 * elements, showing the first. */
static long
gemm_compare(const char *what, const smma_model *model, const smma_gemm_shape *sh,
             const uint32_t *a, const uint32_t *b, const uint32_t *sa, const uint32_t *sb,
             const uint32_t *c, const uint32_t *want)
{
    smma_gemm_operands ops = { a, sh->k, true, b, sh->n, false, sa, sb, c };
    uint32_t *d = malloc(sh->m * sh->n * sizeof(*d));
    smma_error err;
    long bad = 0;
    size_t i;

    if (d == NULL)
        sysbail("no memory");
    if (smma_gemm(model, sh, &ops, d, &err) != SMMA_OK) {
        diag("%s: %s", what, err.msg);
        free(d);
        return 1;
    }
    for (i = 0; i < sh->m * sh->n; i++)
        if (d[i] != want[i] && bad++ == 0)
            diag("%s under %s: D[%zu][%zu] is %08lx, smma_gemm gives %08lx", what, model->name,
                 i / sh->n, i % sh->n, (unsigned long) want[i], (unsigned long) d[i]);
    free(d);
    return bad;
}

struct mma_check {
    const smma_model *model;
    int form;                   /* 0 mma.sync, 1 sm_120a, 2 wgmma, 3 tcgen05 */
    smma_mma_instr mi;
    smma_mma_bs bs;
    smma_wgmma_variant wv;
    smma_tc05_kind kind;
    unsigned scale_vec;         /* tcgen05 */
};

/* mma.sync and the sm_120a forms: unpack through the fragment layouts. */
static long
mma_sync_case(const smma_vec_header *h, const smma_vec_case *c, struct mma_check *x)
{
    smma_frag_layout l[4];
    smma_gemm_shape sh;
    uint32_t a[16 * 64], b[64 * 8], cc[16 * 8], d[16 * 8], sa[64], sb[32];
    uint32_t *ra = words(blk(h, c, "a")), *rb = words(blk(h, c, "b"));
    uint32_t *rc = words(blk(h, c, "c")), *rd = words(blk(h, c, "d"));
    smma_error err;
    long bad = 0;
    unsigned i;

    if (x->form == 0) {
        smma_mma_instr_shape(x->mi, &sh, NULL);
        for (i = 0; i < 4; i++)
            l[i] = *smma_frag_layout_get(x->mi, (smma_operand) i);
        smma_frag_unpack(&l[0], ra, a);
        smma_frag_unpack(&l[1], rb, b);
        smma_frag_unpack(&l[2], rc, cc);
        smma_frag_unpack(&l[3], rd, d);
    } else {
        smma_mma_bs_sel sel = { 0, 0, 0, 0 };

        smma_mma_bs_shape(&x->bs, &sh, NULL);
        if (smma_mma_bs_unpack(&x->bs, SMMA_OP_A, ra, a, &err) != SMMA_OK ||
            smma_mma_bs_unpack(&x->bs, SMMA_OP_B, rb, b, &err) != SMMA_OK ||
            smma_mma_bs_unpack(&x->bs, SMMA_OP_C, rc, cc, &err) != SMMA_OK ||
            smma_mma_bs_unpack(&x->bs, SMMA_OP_D, rd, d, &err) != SMMA_OK)
            bad++;
        if (x->bs.scale_vec) {
            uint32_t *rsa = words(blk(h, c, "sfa")), *rsb = words(blk(h, c, "sfb"));

            sel.byte_id_a = (unsigned) scal(h, c, "byte_id_a");
            sel.thread_id_a = (unsigned) scal(h, c, "thread_id_a");
            sel.byte_id_b = (unsigned) scal(h, c, "byte_id_b");
            sel.thread_id_b = (unsigned) scal(h, c, "thread_id_b");
            if (smma_mma_bs_sf_unpack(&x->bs, SMMA_OP_A, &sel, rsa, sa, &err) != SMMA_OK ||
                smma_mma_bs_sf_unpack(&x->bs, SMMA_OP_B, &sel, rsb, sb, &err) != SMMA_OK)
                bad++;
            free(rsa);
            free(rsb);
        }
    }
    if (bad == 0)
        bad = gemm_compare(h->suite, x->model, &sh, a, b, sa, sb, cc, d);
    free(ra);
    free(rb);
    free(rc);
    free(rd);
    return bad;
}

/* wgmma: A from its registers, B from the shared-memory image through
 * b_desc, the immediates from the case. */
static long
wgmma_case(const smma_vec_header *h, const smma_vec_case *c, struct mma_check *x)
{
    smma_wgmma_variant v = x->wv;
    smma_wgmma_frag fa, fd;
    smma_gemm_shape sh;
    const smma_vec_block *sm = blk(h, c, "smem");
    uint32_t *ra = words(blk(h, c, "a")), *rdi = words(blk(h, c, "d_in"));
    uint32_t *rd = words(blk(h, c, "d")), *a, *b, *cc, *d;
    uint8_t *smem = malloc(sm->rows * 16);
    smma_error err;
    long bad = 0;
    size_t i;

    v.scale_d = scal(h, c, "scale_d") != 0;
    v.scale_a = scal(h, c, "neg_a") ? -1 : 1;
    v.scale_b = scal(h, c, "neg_b") ? -1 : 1;
    v.trans_b = scal(h, c, "trans_b") != 0;
    smma_wgmma_shape(&v, &sh, NULL);
    smma_wgmma_frag_get(&v, SMMA_WGMMA_OP_A, &fa, NULL);
    smma_wgmma_frag_get(&v, SMMA_WGMMA_OP_D, &fd, NULL);
    a = malloc(64 * sh.k * sizeof(*a));
    b = malloc(sh.k * sh.n * sizeof(*b));
    cc = malloc(64 * sh.n * sizeof(*cc));
    d = malloc(64 * sh.n * sizeof(*d));
    if (smem == NULL || a == NULL || b == NULL || cc == NULL || d == NULL)
        sysbail("no memory");
    for (i = 0; i < sm->rows * 16; i++)
        smem[i] = (uint8_t) sm->v[i];
    smma_wgmma_unpack(&fa, ra, a);
    smma_wgmma_unpack(&fd, rdi, cc);
    smma_wgmma_unpack(&fd, rd, d);
    if (smma_wgmma_smem_load(&v, SMMA_WGMMA_OP_B, scal(h, c, "b_desc"), smem, sm->rows * 16, b,
                             &err) != SMMA_OK) {
        diag("%s: %s", h->suite, err.msg);
        bad++;
    }
    for (i = 0; i < 64 * sh.k; i++)
        a[i] ^= v.scale_a < 0 ? sign_bit(v.a_fmt) : 0;
    for (i = 0; i < sh.k * sh.n; i++)
        b[i] ^= v.scale_b < 0 ? sign_bit(v.b_fmt) : 0;
    if (bad == 0)
        bad = gemm_compare(h->suite, x->model, &sh, a, b, NULL, NULL, cc, d);
    free(ra);
    free(rdi);
    free(rd);
    free(a);
    free(b);
    free(cc);
    free(d);
    free(smem);
    return bad;
}

/* The format of a tcgen05 instruction-descriptor format code. */
static smma_format
tc05_fmt(smma_tc05_kind kind, unsigned code)
{
    static const smma_format f8[8] = { SMMA_E4M3, SMMA_E5M2, SMMA_NONE, SMMA_E2M3, SMMA_E3M2,
                                       SMMA_E2M1, SMMA_NONE, SMMA_NONE };

    if (kind == SMMA_TC05_KIND_F16)
        return code == SMMA_TC05_BF16 ? SMMA_BF16 : SMMA_FP16;
    if (kind == SMMA_TC05_KIND_MXF4 || kind == SMMA_TC05_KIND_MXF4NVF4)
        return SMMA_E2M1;
    return f8[code & 7];
}

/* One element of A or B from the shared-memory image as doc/vectors.md
 * says it is stored. */
static uint32_t
tc05_elem(const uint8_t *smem, size_t size, const smma_tc05_layout *l, uint32_t start,
          smma_format f, unsigned row, unsigned k, long *bad)
{
    uint32_t byte;
    unsigned bit;

    if (smma_tc05_smem_addr(l, start, row, k, &byte, &bit, NULL) != SMMA_OK ||
        byte + l->elem_bits / 8 > size || byte >= size) {
        (*bad)++;
        return 0;
    }
    if (l->elem_bits == 16)
        return smem[byte] | (uint32_t) smem[byte + 1] << 8;
    if (l->elem_bits == 4)
        return smem[byte] >> bit & 0xFu;
    return f == SMMA_E2M1 ? smem[byte] >> 2 & 0xFu
                          : smem[byte] & ((1u << smma_format_info(f)->bits) - 1);
}

/* tcgen05: the descriptors decoded, A and B read from the shared-memory
 * image, D and the scales from the TMEM image at the documented columns. */
static long
tc05_case(const smma_vec_header *h, const smma_vec_case *c, struct mma_check *x)
{
    const smma_vec_block *sm = blk(h, c, "smem"), *tm = blk(h, c, "tmem");
    uint32_t *rd = words(blk(h, c, "d")), *a, *b, *cc, *sa, *sb;
    smma_tc05_idesc id;
    smma_tc05_sdesc sa_d, sb_d;
    smma_tc05_layout la, lb;
    smma_gemm_shape sh;
    uint8_t *smem = malloc(sm->rows * 16);
    unsigned m, n, k, kb, lane, col, byte, bits;
    bool acc = scal(h, c, "enable_input_d") != 0;
    smma_error err;
    long bad = 0;
    size_t i;

    if (smem == NULL)
        sysbail("no memory");
    for (i = 0; i < sm->rows * 16; i++)
        smem[i] = (uint8_t) sm->v[i];
    if (smma_tc05_idesc_decode(x->kind, (uint32_t) scal(h, c, "idesc"), &id, &err) != SMMA_OK ||
        smma_tc05_sdesc_decode(scal(h, c, "a_desc"), &sa_d, &err) != SMMA_OK ||
        smma_tc05_sdesc_decode(scal(h, c, "b_desc"), &sb_d, &err) != SMMA_OK)
        bail("%s: %s", h->suite, err.msg);
    memset(&sh, 0, sizeof(sh));
    sh.a_fmt = tc05_fmt(x->kind, id.a_fmt);
    sh.b_fmt = tc05_fmt(x->kind, id.b_fmt);
    sh.k = smma_tc05_mma_k(x->kind, false);
    sh.scale_fmt = x->scale_vec == 0 ? SMMA_NONE
                   : id.scale_fmt == SMMA_TC05_SCALE_UE4M3 ? SMMA_UE4M3 : SMMA_E8M0;
    sh.vec = x->scale_vec ? (unsigned) sh.k / x->scale_vec : 32;
    sh.c_fmt = acc ? SMMA_FP32 : SMMA_NONE;
    sh.d_fmt = SMMA_FP32;
    sh.m = id.m;
    sh.n = id.n;
    bits = x->kind == SMMA_TC05_KIND_F16 ? 16 : sh.a_fmt == SMMA_E2M1 &&
           x->kind != SMMA_TC05_KIND_F8F6F4 && x->kind != SMMA_TC05_KIND_MXF8F6F4 ? 4 : 8;
    la.mn_major = id.a_mn_major;
    lb.mn_major = id.b_mn_major;
    la.swizzle = sa_d.swizzle;
    lb.swizzle = sb_d.swizzle;
    la.elem_bits = lb.elem_bits = bits;
    la.lbo = sa_d.lbo;
    la.sbo = sa_d.sbo;
    lb.lbo = sb_d.lbo;
    lb.sbo = sb_d.sbo;
    a = malloc(sh.m * sh.k * sizeof(*a));
    b = malloc(sh.k * sh.n * sizeof(*b));
    cc = malloc(sh.m * sh.n * sizeof(*cc));
    sa = malloc(sh.m * 4 * sizeof(*sa));
    sb = malloc(sh.n * 4 * sizeof(*sb));
    if (a == NULL || b == NULL || cc == NULL || sa == NULL || sb == NULL)
        sysbail("no memory");
    for (m = 0; m < sh.m; m++)
        for (k = 0; k < sh.k; k++)
            a[m * sh.k + k] = tc05_elem(smem, sm->rows * 16, &la, sa_d.start, sh.a_fmt, m, k,
                                        &bad) ^ (id.negate_a ? sign_bit(sh.a_fmt) : 0);
    for (n = 0; n < sh.n; n++)
        for (k = 0; k < sh.k; k++)
            b[k * sh.n + n] = tc05_elem(smem, sm->rows * 16, &lb, sb_d.start, sh.b_fmt, n, k,
                                        &bad) ^ (id.negate_b ? sign_bit(sh.b_fmt) : 0);
    for (m = 0; m < sh.m; m++)
        for (n = 0; n < sh.n; n++)
            cc[m * sh.n + n] = (uint32_t) tm->v[m * tm->cols + n];
    for (kb = 0; kb < x->scale_vec; kb++) {
        smma_tmem_sflayout fa = { (unsigned) sh.m, x->scale_vec, id.sfa_id,
                                  smma_tmem_addr(0, (unsigned) sh.n) };
        smma_tmem_sflayout fb = { (unsigned) sh.n, x->scale_vec, id.sfb_id,
                                  smma_tmem_addr(0, (unsigned) sh.n + 4) };

        for (m = 0; m < sh.m; m++) {
            smma_tmem_sf_coord(&fa, m, kb, 0, &lane, &col, &byte);
            sa[m * x->scale_vec + kb] = (uint32_t) (tm->v[lane * tm->cols + col] >> (8 * byte)) &
                                        0xFFu;
        }
        for (n = 0; n < sh.n; n++) {
            smma_tmem_sf_coord(&fb, n, kb, 0, &lane, &col, &byte);
            sb[n * x->scale_vec + kb] = (uint32_t) (tm->v[lane * tm->cols + col] >> (8 * byte)) &
                                        0xFFu;
        }
    }
    if (bad == 0)
        bad = gemm_compare(h->suite, x->model, &sh, a, b, sa, sb, cc, rd);
    free(rd);
    free(a);
    free(b);
    free(cc);
    free(sa);
    free(sb);
    free(smem);
    return bad;
}

static long
mma_case(const smma_vec_header *h, const smma_vec_case *c, void *ctx)
{
    struct mma_check *x = ctx;

    switch (x->form) {
    case 0:
    case 1:
        return mma_sync_case(h, c, x);
    case 2:
        return wgmma_case(h, c, x);
    default:
        return tc05_case(h, c, x);
    }
}

/* Fills x from an mma suite's name; false for a name it cannot read. */
static bool
mma_parse(const smma_vec_header *h, struct mma_check *x)
{
    char instr[128];
    const char *dot = strrchr(h->suite, '.');
    static const char *const kinds[] = { ".f16.", ".f8f6f4.", ".mxf8f6f4.", ".mxf4.",
                                         ".mxf4nvf4." };
    static const smma_tc05_kind kv[] = { SMMA_TC05_KIND_F16, SMMA_TC05_KIND_F8F6F4,
                                         SMMA_TC05_KIND_MXF8F6F4, SMMA_TC05_KIND_MXF4,
                                         SMMA_TC05_KIND_MXF4NVF4 };
    unsigned i;

    memset(x, 0, sizeof(*x));
    if (smma_model_from_name(h->model, &x->model, NULL) != SMMA_OK ||
        strcmp(dot + 1, h->model) != 0)
        return false;
    snprintf(instr, sizeof(instr), "%.*s", (int) (dot - h->suite - 4), h->suite + 4);
    if (strncmp(instr, "wgmma.", 6) == 0) {
        x->form = 2;
        return smma_wgmma_from_name(instr, &x->wv, NULL) == SMMA_OK;
    }
    if (strncmp(instr, "tcgen05.", 8) == 0) {
        x->form = 3;
        strcat(instr, ".");
        for (i = 0; i < 5; i++)
            if (strstr(instr, kinds[i]) != NULL)
                x->kind = kv[i];
        x->scale_vec = x->kind == SMMA_TC05_KIND_MXF8F6F4 ? 1
                       : x->kind == SMMA_TC05_KIND_MXF4 ? 2
                       : x->kind == SMMA_TC05_KIND_MXF4NVF4 ? (strstr(instr, ".4x") ? 4 : 2)
                                                           : 0;
        return true;
    }
    snprintf(instr, sizeof(instr), "mma.%.*s", (int) (dot - h->suite - 4), h->suite + 4);
    if (smma_mma_instr_from_name(instr, &x->mi, NULL) == SMMA_OK)
        return true;
    x->form = 1;
    return smma_mma_bs_from_name(instr, &x->bs, NULL) == SMMA_OK;
}

/* A scalar of a case, or dflt where the suite has no such field. */
static uint64_t
scal_or(const smma_vec_header *h, const smma_vec_case *c, const char *name, uint64_t dflt)
{
    return smma_vec_field_index(h, name) < 0 ? dflt : scal(h, c, name);
}

/* D of shape sh against want: in full, or on 2048 sampled outputs
 * (smma_gemm_verify; the kernel-scale exact suites under every model). */
static long
gemm_check_one(const char *what, bool sampled, const smma_model *model,
               const smma_gemm_shape *sh, const uint32_t *a, const uint32_t *b,
               const uint32_t *sa, const uint32_t *sb, const uint32_t *c, const uint32_t *want)
{
    smma_gemm_operands ops = { a, sh->k, true, b, sh->n, false, sa, sb, c };
    size_t checked, bad;
    smma_mismatch first;
    smma_error err;

    if (!sampled)
        return gemm_compare(what, model, sh, a, b, sa, sb, c, want);
    if (smma_gemm_verify(model, sh, &ops, want, 2048, 7, &checked, &bad, &first, 1, &err) !=
        SMMA_OK) {
        diag("%s: %s", what, err.msg);
        return 1;
    }
    if (bad > 0)
        diag("%s under %s: D[%zu][%zu] is %08lx, smma_gemm gives %08lx", what, model->name,
             first.i, first.j, (unsigned long) first.want, (unsigned long) first.got);
    return (long) bad;
}

/* gemm: the matrices as blocks; the exact class under every model.  The
 * kernel-scale suites add has_c, d_fmt (0 fp32, 1 bf16, 2 fp16), alpha and
 * A without scales (no sa). */
static long
gemm_case(const smma_vec_header *h, const smma_vec_case *c, void *ctx)
{
    static const smma_format dfmts[3] = { SMMA_FP32, SMMA_BF16, SMMA_FP16 };
    const smma_model *model = ctx;
    const smma_vec_block *ba = blk(h, c, "a"), *bb = blk(h, c, "b");
    int fsa = smma_vec_field_index(h, "sa"), fsb = smma_vec_field_index(h, "sb");
    uint32_t *a = words(ba), *b = words(bb), *cc = words(blk(h, c, "c"));
    uint32_t *d = words(blk(h, c, "d")), *sa = NULL, *sb = NULL;
    bool kernel = strstr(h->suite, ".kernel.") != NULL;
    uint64_t dcode = scal_or(h, c, "d_fmt", 0), alpha = scal_or(h, c, "alpha", 0x3f800000u);
    smma_gemm_shape sh;
    size_t i, j, kb = 0, nmodels = 0;
    long bad = 0;

    memset(&sh, 0, sizeof(sh));
    sh.a_fmt = smma_vec_type_format(h->fields[smma_vec_field_index(h, "a")].type);
    sh.b_fmt = smma_vec_type_format(h->fields[smma_vec_field_index(h, "b")].type);
    sh.scale_fmt = SMMA_NONE;
    sh.vec = 32;
    sh.c_fmt = scal_or(h, c, "has_c", 1) ? SMMA_FP32 : SMMA_NONE;
    sh.d_fmt = dcode < 3 ? dfmts[dcode] : SMMA_FP32;
    bad += dcode >= 3;
    sh.has_alpha = alpha != 0x3f800000u;
    sh.alpha = (uint32_t) alpha;
    sh.m = ba->rows;
    sh.k = ba->cols;
    sh.n = bb->cols;
    if (scal(h, c, "m") != sh.m || scal(h, c, "k") != sh.k || scal(h, c, "n") != sh.n)
        bad++;
    if (fsb >= 0) {
        const smma_vec_block *bsb = &c->blocks[fsb];

        sh.scale_fmt = smma_vec_type_format(h->fields[fsb].type);
        kb = bsb->rows;
        sh.vec = (sh.k + 31) / 32 == kb ? 32 : 16;
        if (fsa >= 0)
            sa = words(&c->blocks[fsa]);
        sb = malloc(sh.n * kb * sizeof(*sb) + 1);
        if (sb == NULL)
            sysbail("no memory");
        for (i = 0; i < kb; i++)     /* kb x n in the file, n x kb for smma_gemm */
            for (j = 0; j < sh.n; j++)
                sb[j * kb + i] = (uint32_t) bsb->v[i * sh.n + j];
    }
    if (sh.c_fmt == SMMA_NONE) {
        free(cc);
        cc = NULL;
    }
    if (model != NULL) {
        bad += gemm_check_one(h->suite, false, model, &sh, a, b, sa, sb, cc, d);
    } else {
        for (i = 0; i < smma_model_count(); i++) {
            /* The exact class: every model that can compute it, whatever
             * inputs it defines (gen/gemm.c lists them in the header). */
            smma_model any = smma_model_any_inputs(smma_model_at(i));

            if (smma_model_check(&any, &sh, NULL) == SMMA_OK) {
                bad += gemm_check_one(h->suite, kernel, &any, &sh, a, b, sa, sb, cc, d);
                nmodels++;
            }
        }
        bad += nmodels < 10;
    }
    free(a);
    free(b);
    free(cc);
    free(d);
    free(sa);
    free(sb);
    return bad;
}

/* The committed files of a family, sorted. */
static int
cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *) a, *(char *const *) b);
}

static size_t
committed(const char *dir, const char *prefix, char ***out)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    size_t n = 0, cap = 0;
    char **v = NULL;

    if (d == NULL)
        sysbail("cannot open %s", dir);
    while ((de = readdir(d)) != NULL) {
        size_t l = strlen(de->d_name);

        if (strncmp(de->d_name, prefix, strlen(prefix)) != 0 || l < 5 ||
            strcmp(de->d_name + l - 4, ".vec") != 0)
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            v = realloc(v, cap * sizeof(*v));
            if (v == NULL)
                sysbail("no memory");
        }
        v[n] = malloc(strlen(dir) + l + 2);
        if (v[n] == NULL)
            sysbail("no memory");
        sprintf(v[n++], "%s/%s", dir, de->d_name);
    }
    closedir(d);
    if (n > 0)
        qsort(v, n, sizeof(*v), cmp_str);
    *out = v;
    return n;
}

static void
free_list(char **v, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

/* The header of a file (the reader is closed again). */
static smma_vec_header
header_of(const char *path)
{
    smma_vec_reader *r;
    smma_vec_header h;
    smma_error err;

    if (smma_vec_open(path, &r, &err) != SMMA_OK)
        bail("%s", err.msg);
    h = *smma_vec_header_of(r);
    smma_vec_close(r);
    return h;
}

static void
check_committed_fragments(const char *dir)
{
    char **files;
    size_t n = committed(dir, "fragment.", &files), i, checked = 0, cases = 0;
    long bad = 0;

    for (i = 0; i < n; i++) {
        smma_vec_header h = header_of(files[i]);
        struct frag_check x;
        size_t nc;
        long b = 0;

        if (test_level() == 0 && i % 4 != 0)
            continue;
        if (!frag_parse(h.suite, &x)) {
            diag("%s: cannot read the suite name", files[i]);
            bad++;
            continue;
        }
        x.seen = calloc((size_t) x.rows * x.cols, 1);
        if (x.seen == NULL)
            sysbail("no memory");
        nc = each_case(files[i], frag_case, &x, &b);
        if (nc != x.expect)
            b++;
        if (b != 0 && bad < 5)
            diag("%s: %ld defects (%zu rows, %zu expected)", h.suite, b, nc, x.expect);
        bad += b;
        cases += nc;
        checked++;
        free(x.seen);
    }
    ok(n >= 100 && bad == 0, "%zu of %zu committed fragment suites (%zu rows): every row is "
       "the inverse layout function's, every tile covered once", checked, n, cases);
    free_list(files, n);
}

static void
check_committed_mma(const char *dir)
{
    char **files;
    size_t n = committed(dir, "mma.", &files), i, checked = 0, cases = 0, forms[4] = { 0 };
    long bad = 0;

    for (i = 0; i < n; i++) {
        smma_vec_header h = header_of(files[i]);
        struct mma_check x;
        long b = 0;

        if (test_level() == 0 && i % 4 != 0)
            continue;
        if (!mma_parse(&h, &x)) {
            diag("%s: cannot read the suite name and model", files[i]);
            bad++;
            continue;
        }
        cases += each_case(files[i], mma_case, &x, &b);
        if (b != 0 && bad < 5)
            diag("%s: %ld differing elements", h.suite, b);
        bad += b;
        forms[x.form]++;
        checked++;
    }
    ok(n >= 40 && bad == 0 && (test_level() == 0 || (forms[0] && forms[1] && forms[2] &&
                                                    forms[3])),
       "%zu of %zu committed mma suites (%zu cases; mma.sync %zu, sm_120a %zu, wgmma %zu, "
       "tcgen05 %zu): D is smma_gemm of the unpacked registers and memory images",
       checked, n, cases, forms[0], forms[1], forms[2], forms[3]);
    free_list(files, n);
}

static void
check_committed_gemm(const char *dir)
{
    char **files;
    size_t n = committed(dir, "gemm.", &files), i, nexact = 0, nmodel = 0, checked = 0;
    long bad = 0;

    for (i = 0; i < n; i++) {
        smma_vec_header h = header_of(files[i]);
        const smma_model *model = NULL;
        bool exact = strstr(h.suite, ".exact") != NULL && strstr(h.suite, ".model.") == NULL;
        const char *kind = strchr(h.suite + 5, '.');
        long b = 0;

        if (!exact && smma_model_from_name(h.model, &model, NULL) != SMMA_OK) {
            diag("%s: no model '%s'", h.suite, h.model);
            bad++;
            continue;
        }
        if (exact)
            nexact++;
        else
            nmodel++;
        /* TEST_SAMPLE: one file a point, of the class of its kind (the
         * name after the pair: exact, model.M, kernel.model.M, ...). */
        if (!sample_point(kind != NULL ? kind : h.suite, h.suite))
            continue;
        each_case(files[i], gemm_case, (void *) model, &b);
        bad += b;
        checked++;
    }
    ok(nexact == 22 && nmodel >= 40 && bad == 0, "committed gemm suites (%zu of %zu checked): "
       "%zu exact-class ones equal under every model that computes them, %zu model-class ones "
       "under their model", checked, n, nexact, nmodel);
    free_list(files, n);
}

/* Rows of committed fragment files checked by hand against the PTX ISA's
 * figures and formulas. */
static void
check_fragment_literals(const char *dir)
{
    static const struct {
        const char *suite;
        unsigned nin;
        uint64_t row[7];
        const char *why;
    } lit[] = {
        { "fragment.mma.m16n8k16.bf16.a", 3, { 5, 2, 1, 1, 11, 16 },
          "m16n8k16 A: lane 5 (group 1, tig 1) a5 = reg 2 elem 1 is (row 1, col 2tig+8+1)" },
        { "fragment.mma.m16n8k16.bf16.b", 3, { 9, 1, 0, 10, 2, 0 },
          "m16n8k16 B: lane 9 (group 2, tig 1) b2 is (k 2tig+8, n 2)" },
        { "fragment.mma.m16n8k32.e4m3.a", 3, { 30, 3, 2, 15, 26, 16 },
          "m16n8k32 A: lane 30 (group 7, tig 2) reg 3 elem 2 is (row 15, col 4tig+16+2)" },
        { "fragment.mma.m16n8k16.bf16.d", 3, { 31, 3, 0, 15, 7, 0 },
          "C/D: lane 31 reg 3 is (row group+8 = 15, col 2tig+1 = 7)" },
        { "fragment.mma.m16n8k32.mxf8f6f4.e4m3.e2m1.b", 3, { 0, 0, 1, 1, 0, 10 },
          "e2m1 B in 8-bit containers: element 1 of a register in bits 13:10" },
        { "fragment.mma.m16n8k64.mxf4.a", 3, { 1, 0, 7, 0, 15, 28 },
          "m16n8k64 A: lane 1 (tig 1) reg 0 elem 7 is (row 0, col 8tig+7), bits 31:28" },
        { "fragment.mma.m16n8k64.mxf4nvf4.2x.sfa", 4, { 0, 0, 5, 1, 9, 1 },
          "scale_A 2X, selectors 0/0: lane 4(9%8)+9/8 = 5, byte 1 holds (m 9, k block 1)" },
        { "fragment.mma.m16n8k64.mxf4nvf4.2x.sfb", 4, { 2, 3, 23, 3, 5, 1 },
          "scale_B 2X, byte-id 2, thread-id 3: lane 4n+3 = 23, byte 2+1 holds (n 5, k block 1)" },
        { "fragment.wgmma.m64n8k16.bf16.a", 3, { 37, 2, 1, 17, 11, 16 },
          "wgmma A: thread 37 (warp 1, lane 5) a5 = reg 2 elem 1 is (row 17, col 11)" },
        { "fragment.wgmma.m64n64k16.bf16.d", 3, { 37, 6, 0, 25, 10, 0 },
          "wgmma D: thread 37 d6 = reg 6 is (row 25, col 10)" },
        { "fragment.ldmatrix.x1", 3, { 5, 0, 1, 0, 1, 3, 16 },
          "ldmatrix: lane 5 holds row 1, columns 2 and 3 (the high half: column 3)" },
        { "fragment.ldmatrix.x4.trans", 3, { 5, 3, 0, 3, 2, 1, 0 },
          "ldmatrix .trans: lane 5 holds rows 2 and 3 of column 1 (matrix 3 in reg 3)" },
        { "fragment.tcgen05.ld.16x64b.x1", 3, { 5, 0, 0, 9, 0, 0 },
          ".16x64b: thread 5 reaches lane 5/4 + 8 (5%2) = 9, column (5/2)%2 = 0" },
        { "fragment.tcgen05.ld.32x32b.x8", 3, { 7, 3, 0, 7, 3, 0 },
          ".32x32b: thread 7 register 3 is lane 7, column 3" },
        { "fragment.tcgen05.d.m64n16.cg1", 2, { 20, 5, 0, 36, 5 },
          "M 64 (Layout F): row 20 is lane 32 (20/16) + 20%16 = 36, column n" },
        { "fragment.tcgen05.sf.1x.r128", 4, { 1, 40, 0, 2, 72, 1, 1 },
          "scale row 40, copy 2, SF_ID 1: lane 32*2 + 40%32 = 72, column 40/32 = 1, byte 1" },
    };
    size_t i;

    for (i = 0; i < sizeof(lit) / sizeof(lit[0]); i++) {
        char path[512];
        smma_vec_reader *r;
        const smma_vec_case *c;
        smma_error err;
        bool found = false, same = false;
        size_t j, nf;

        snprintf(path, sizeof(path), "%s/%s.vec", dir, lit[i].suite);
        if (smma_vec_open(path, &r, &err) != SMMA_OK)
            bail("%s", err.msg);
        nf = smma_vec_header_of(r)->nscalars;
        while (!found && smma_vec_next(r, &c, &err) == SMMA_OK && c != NULL) {
            for (j = 0; j < lit[i].nin && c->scalars[j] == lit[i].row[j]; j++)
                ;
            if (j < lit[i].nin)
                continue;
            found = true;
            for (j = 0; j < nf && c->scalars[j] == lit[i].row[j]; j++)
                ;
            same = j == nf;
        }
        smma_vec_close(r);
        ok(found && same, "%s: %s", lit[i].suite, lit[i].why);
    }
}

static void
check_committed(void)
{
    char *dir = test_file_path("vectors");

    check_fragment_literals(dir);
    check_committed_fragments(dir);
    check_committed_mma(dir);
    check_committed_gemm(dir);
    test_file_free(dir);
}

/* Out of memory (tap/failalloc.h): the allocation a countdown picks fails.
 * The reader and the writer report SMMA_ENOMEM and keep reporting it; a
 * reader that could not start is freed. */
static void
check_alloc_failures(void)
{
    smma_vec_reader *r = NULL;
    smma_vec_writer *w;
    smma_vec_header h;
    const smma_vec_case *c;
    smma_error err = { "" };
    uint64_t row[3] = { 0x3f800000u, 1, 0x38 };
    long before;
    int rc;

    if (!tap_alloc_hook()) {
        skip_block(9, "no failing allocator here (glibc only, not under valgrind or AddressSanitizer)");
        return;
    }
    before = tap_alloc_live();
    tap_alloc_fail_after(0);
    rc = smma_vec_open_mem(block_text, strlen(block_text), "blocks", &r, &err);
    ok(rc == SMMA_ENOMEM && strcmp(err.msg, "out of memory") == 0 && !tap_alloc_pending() &&
           tap_alloc_live() == before,
       "open: the reader's own allocation fails: SMMA_ENOMEM (%s)", err.msg);
    tap_alloc_fail_after(1);
    rc = smma_vec_open_mem(block_text, strlen(block_text), "blocks", &r, &err);
    ok(rc == SMMA_ENOMEM && strcmp(err.msg, "blocks: out of memory") == 0 &&
           !tap_alloc_pending() && tap_alloc_live() == before,
       "open: the case's scalars cannot be allocated: SMMA_ENOMEM, the reader freed (%s)",
       err.msg);
    tap_alloc_fail_after(-1);
    if (smma_vec_open_mem(block_text, strlen(block_text), "blocks", &r, &err) != SMMA_OK)
        bail("the block suite does not open: %s", err.msg);
    tap_alloc_fail_after(0);
    rc = smma_vec_next(r, &c, &err);
    ok(rc == SMMA_ENOMEM && c == NULL && strcmp(err.msg, "blocks: out of memory") == 0 &&
           !tap_alloc_pending(),
       "next: a block's values cannot be allocated: SMMA_ENOMEM (%s)", err.msg);
    err.msg[0] = '\0';
    rc = smma_vec_next(r, &c, &err);
    ok(rc == SMMA_ENOMEM && c == NULL && strcmp(err.msg, "blocks: out of memory") == 0,
       "... and the reader keeps saying so (%s)", err.msg);
    smma_vec_close(r);

    example_header(&h);
    tap_alloc_fail_after(0);
    rc = smma_vec_writer_new(&h, &w, &err);
    ok(rc == SMMA_ENOMEM && strcmp(err.msg, "out of memory") == 0 && !tap_alloc_pending(),
       "writer_new: the writer cannot be allocated: SMMA_ENOMEM (%s)", err.msg);
    tap_alloc_fail_after(-1);
    if (smma_vec_writer_new(&h, &w, &err) != SMMA_OK)
        bail("no writer: %s", err.msg);
    tap_alloc_fail_after(0);
    rc = smma_vec_put_row(w, row, &err);
    ok(rc == SMMA_ENOMEM && strstr(err.msg, "out of memory writing ") == err.msg &&
           !tap_alloc_pending(),
       "put_row: the body cannot grow: SMMA_ENOMEM (%s)", err.msg);
    err.msg[0] = '\0';
    ok(smma_vec_put_row(w, row, &err) == SMMA_ENOMEM &&
           strstr(err.msg, "out of memory writing ") == err.msg,
       "... the writer keeps saying so (%s)", err.msg);
    ok(smma_vec_put_comment(w, "x", &err) == SMMA_ENOMEM, "... for a comment too");
    ok(smma_vec_finish(w, NULL, NULL, &err) == SMMA_ENOMEM, "... and at the finish");
    smma_vec_writer_free(w);
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
    check_committed();
    check_alloc_failures();
    return exit_status();
}
