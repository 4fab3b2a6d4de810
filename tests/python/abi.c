/*
 * tests/python/abi.c - prints the size of every structure the Python module
 * mirrors with ctypes (python/softmma/_lib.py) and the offset of each of
 * their fields, as the C compiler lays them out:
 *     STRUCT size N
 *     STRUCT.FIELD offset N
 * tests/python/module-t.py compares these lines with ctypes' layout, so a
 * field added to a header without its mirror fails the test.
 */
#include <config.h>

#include <stddef.h>
#include <stdio.h>

#include <softmma/format.h>
#include <softmma/gemm.h>
#include <softmma/grid.h>
#include <softmma/profile.h>
#include <softmma/quant.h>
#include <softmma/scale_layout.h>
#include <softmma/vectors.h>

#define SIZE(t) printf("%s size %zu\n", #t, sizeof(t))
#define OFF(t, f) printf("%s.%s offset %zu\n", #t, #f, offsetof(t, f))

int
main(void)
{
    SIZE(smma_format_desc);
    OFF(smma_format_desc, id);
    OFF(smma_format_desc, name);
    OFF(smma_format_desc, title);
    OFF(smma_format_desc, bits);
    OFF(smma_format_desc, storage_bits);
    OFF(smma_format_desc, has_sign);
    OFF(smma_format_desc, exp_bits);
    OFF(smma_format_desc, man_bits);
    OFF(smma_format_desc, bias);
    OFF(smma_format_desc, has_subnormals);
    OFF(smma_format_desc, has_zero);
    OFF(smma_format_desc, inf);
    OFF(smma_format_desc, nan);
    OFF(smma_format_desc, max_code);
    OFF(smma_format_desc, min_sub_code);
    OFF(smma_format_desc, min_norm_code);
    OFF(smma_format_desc, emax);
    OFF(smma_format_desc, emin);

    SIZE(smma_error);
    OFF(smma_error, msg);

    SIZE(smma_cvt);
    OFF(smma_cvt, round);
    OFF(smma_cvt, sat);
    OFF(smma_cvt, rbits);
    OFF(smma_cvt, profile);

    SIZE(smma_profile);
    OFF(smma_profile, name);
    OFF(smma_profile, summary);
    OFF(smma_profile, round);
    OFF(smma_profile, sat);
    OFF(smma_profile, nan_to_finite);
    OFF(smma_profile, nan_out);
    OFF(smma_profile, inf_nonf);
    OFF(smma_profile, neg_unsigned);
    OFF(smma_profile, e8m0_zero);
    OFF(smma_profile, e8m0_inf);
    OFF(smma_profile, e8m0_round);
    OFF(smma_profile, e8m0_rn);
    OFF(smma_profile, ue4m3_strict);
    OFF(smma_profile, scale_rule);
    OFF(smma_profile, scale_ratio);
    OFF(smma_profile, scale_cvt);
    OFF(smma_profile, amax_nan);
    OFF(smma_profile, zero_block);
    OFF(smma_profile, nonfinite_nan);
    OFF(smma_profile, scale_overflow);
    OFF(smma_profile, elem_apply);
    OFF(smma_profile, nan_positive);
    OFF(smma_profile, nvfp4);
    OFF(smma_profile, elem_quirk);
    OFF(smma_profile, dq_zero_scale_zero);
    OFF(smma_profile, arith_in_input);
    OFF(smma_profile, quant_summary);

    SIZE(smma_block_format_desc);
    OFF(smma_block_format_desc, id);
    OFF(smma_block_format_desc, name);
    OFF(smma_block_format_desc, elem);
    OFF(smma_block_format_desc, scale);
    OFF(smma_block_format_desc, block);
    OFF(smma_block_format_desc, emax_elem);
    OFF(smma_block_format_desc, elem_man_bits);
    OFF(smma_block_format_desc, max_elem);

    SIZE(smma_quant_opts);
    OFF(smma_quant_opts, profile);
    OFF(smma_quant_opts, global);
    OFF(smma_quant_opts, global_bits);
    OFF(smma_quant_opts, override_round);
    OFF(smma_quant_opts, round);
    OFF(smma_quant_opts, rbits);
    OFF(smma_quant_opts, input_bf16);
    SIZE(smma_quant_cmp);
    OFF(smma_quant_cmp, blocks);
    OFF(smma_quant_cmp, differ);
    OFF(smma_quant_cmp, first_block);
    OFF(smma_quant_cmp, first_elem);
    OFF(smma_quant_cmp, given);
    OFF(smma_quant_cmp, expected);

    SIZE(smma_grid_opts);
    OFF(smma_grid_opts, byte_id);
    OFF(smma_grid_opts, thread_id);
    OFF(smma_grid_opts, sf_id);
    OFF(smma_grid_opts, num);

    SIZE(smma_scale_shape);
    OFF(smma_scale_shape, layout);
    OFF(smma_scale_shape, rows);
    OFF(smma_scale_shape, k);
    OFF(smma_scale_shape, vec);
    OFF(smma_scale_shape, kb);
    OFF(smma_scale_shape, row_tile);
    OFF(smma_scale_shape, col_tile);
    OFF(smma_scale_shape, rows_pad);
    OFF(smma_scale_shape, kb_pad);
    OFF(smma_scale_shape, bytes);

    SIZE(smma_model);
    OFF(smma_model, name);
    OFF(smma_model, summary);
    OFF(smma_model, kind);
    OFF(smma_model, round);
    OFF(smma_model, fma);
    OFF(smma_model, neab);
    OFF(smma_model, floor);
    OFF(smma_model, normalize);
    OFF(smma_model, upcast_bf16);
    OFF(smma_model, promote);
    OFF(smma_model, inner);
    OFF(smma_model, inputs);
    OFF(smma_model, status);
    OFF(smma_model, psum_apart);
    OFF(smma_model, psum_round);
    OFF(smma_model, korder);
    OFF(smma_model, korder_len);
    OFF(smma_model, upcast_f16);
    OFF(smma_model, f16_acc);
    OFF(smma_model, c_last);
    OFF(smma_model, zero_plus);
    OFF(smma_model, unscaled);
    OFF(smma_model, ab_formats);
    OFF(smma_model, scale_formats);
    OFF(smma_model, d_formats);
    SIZE(smma_model_alias);
    OFF(smma_model_alias, name);
    OFF(smma_model_alias, model);
    OFF(smma_model_alias, summary);
    OFF(smma_model_alias, status);

    SIZE(smma_gemm_shape);
    OFF(smma_gemm_shape, a_fmt);
    OFF(smma_gemm_shape, b_fmt);
    OFF(smma_gemm_shape, scale_fmt);
    OFF(smma_gemm_shape, vec);
    OFF(smma_gemm_shape, c_fmt);
    OFF(smma_gemm_shape, d_fmt);
    OFF(smma_gemm_shape, m);
    OFF(smma_gemm_shape, n);
    OFF(smma_gemm_shape, k);
    OFF(smma_gemm_shape, has_alpha);
    OFF(smma_gemm_shape, alpha);

    SIZE(smma_gemm_operands);
    OFF(smma_gemm_operands, a);
    OFF(smma_gemm_operands, lda);
    OFF(smma_gemm_operands, a_kmajor);
    OFF(smma_gemm_operands, b);
    OFF(smma_gemm_operands, ldb);
    OFF(smma_gemm_operands, b_kmajor);
    OFF(smma_gemm_operands, sa);
    OFF(smma_gemm_operands, sb);
    OFF(smma_gemm_operands, c);

    SIZE(smma_mismatch);
    OFF(smma_mismatch, i);
    OFF(smma_mismatch, j);
    OFF(smma_mismatch, want);
    OFF(smma_mismatch, got);

    SIZE(smma_gemm_data);
    OFF(smma_gemm_data, a);
    OFF(smma_gemm_data, b);
    OFF(smma_gemm_data, sa);
    OFF(smma_gemm_data, sb);
    OFF(smma_gemm_data, c);

    SIZE(smma_vec_type_info);
    OFF(smma_vec_type_info, id);
    OFF(smma_vec_type_info, name);
    OFF(smma_vec_type_info, bits);
    OFF(smma_vec_type_info, digits);
    OFF(smma_vec_type_info, bytes);

    SIZE(smma_vec_field);
    OFF(smma_vec_field, name);
    OFF(smma_vec_field, type);
    OFF(smma_vec_field, out);
    OFF(smma_vec_field, block);
    OFF(smma_vec_field, count);
    OFF(smma_vec_field, offset);

    SIZE(smma_vec_header);
    OFF(smma_vec_header, version);
    OFF(smma_vec_header, suite);
    OFF(smma_vec_header, generator);
    OFF(smma_vec_header, seed);
    OFF(smma_vec_header, level);
    OFF(smma_vec_header, profile);
    OFF(smma_vec_header, model);
    OFF(smma_vec_header, nfields);
    OFF(smma_vec_header, fields);
    OFF(smma_vec_header, cases);
    OFF(smma_vec_header, nscalars);
    OFF(smma_vec_header, nblocks);
    OFF(smma_vec_header, suite_line);

    SIZE(smma_vec_block);
    OFF(smma_vec_block, rows);
    OFF(smma_vec_block, cols);
    OFF(smma_vec_block, v);

    SIZE(smma_vec_case);
    OFF(smma_vec_case, index);
    OFF(smma_vec_case, line);
    OFF(smma_vec_case, scalars);
    OFF(smma_vec_case, blocks);

    /* The enums ctypes passes as C ints. */
    printf("enum size %zu\n", sizeof(smma_format));
    return 0;
}
