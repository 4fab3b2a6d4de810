"""softmma: a bit-exact oracle of FP4/FP6/FP8/E8M0/UE4M3 formats and of
block-scaled matrix products, callable from Python.

A thin layer (ctypes, the standard library) over the C library libsoftmma;
numpy arrays in and out, nothing compiled.  The functions mirror the C API
of softmma/*.h and keep its names without the smma_ prefix:

  formats, format_info, code_dtype, decode, encode, encode_f32bits,
  profiles                                          (softmma/format.h, profile.h)
  block_formats, block_format_info, block_count, quantize, dequantize,
  quant_global_decode, block_amax, block_scale, pack_fp4, unpack_fp4,
  which_profiles, ProfileMatch, QuantDiff          (softmma/quant.h)
  scale_layouts, scale_layout_shape, scale_layout_size, scale_offset,
  scale_offsets, scale_coord, scale_pack, scale_unpack, scale_triton5d_index
                                                    (softmma/scale_layout.h)
  layout_shape, holder, cells                       (fragment layouts, softmma/grid.h)
  models, model_aliases, model_info, gemm, gemm_values, gemm_verify,
  gemm_match, gemm_generate, BScales                (softmma/gemm.h)
  gemm_split_k, split_k_slices, split_k_match       (split-K, on gemm)
  scaled_mm                                         (torch._scaled_mm's epilogue)
  read_vectors, vec_types                           (softmma/vectors.h)
  read_split_k_table, SplitKTable, SplitKPrediction (cuBLASLt's split-K per shape,
                                                     from bench/cublaslt-probe.py)

Codes are unsigned integer arrays of the format's container (uint8 for the
8-bit and narrower formats, uint16 for bf16/fp16, uint32 for fp32); values
are float64 (exact).  Arguments of the wrong dtype, shape or range are
refused with SoftmmaError, never converted; errors of the library raise
SoftmmaError with its message.  doc/python.md has examples.
"""

from ._lib import SoftmmaError, library_path
from .codec import (formats, format_info, code_dtype, decode, encode, encode_f32bits,
                    profiles, ROUNDINGS)
from .quant import (block_formats, block_format_info, block_count, quantize, dequantize,
                    quant_global_decode, block_amax, block_scale, pack_fp4, unpack_fp4,
                    which_profiles, ProfileMatch, QuantDiff)
from .layout import (scale_layouts, scale_layout_shape, scale_layout_size, scale_offset,
                     scale_offsets, scale_coord, scale_pack, scale_unpack,
                     scale_triton5d_index, ScaleShape, layout_shape, holder, cells, Holder,
                     Cells)
from .gemm import (models, model_aliases, model_info, gemm, gemm_values, gemm_verify,
                   gemm_match, gemm_generate, gemm_split_k, split_k_slices, split_k_match,
                   scaled_mm, BScales, GemmVerify, GemmMatch, Mismatch, SplitKMatch)
from .vectors import read_vectors, vec_types, VectorSuite, VectorField
from .splitk import read_split_k_table, h100_split_k_table, SplitKTable, SplitKPrediction

__all__ = ['SoftmmaError', 'library_path',
           'formats', 'format_info', 'code_dtype', 'decode', 'encode', 'encode_f32bits',
           'profiles', 'ROUNDINGS',
           'block_formats', 'block_format_info', 'block_count', 'quantize', 'dequantize',
           'quant_global_decode', 'block_amax', 'block_scale', 'pack_fp4', 'unpack_fp4',
           'which_profiles', 'ProfileMatch', 'QuantDiff', 'scale_layouts', 'scale_layout_shape', 'scale_layout_size', 'scale_offset',
           'scale_offsets', 'scale_coord', 'scale_pack', 'scale_unpack', 'scale_triton5d_index',
           'ScaleShape', 'layout_shape', 'holder', 'cells', 'Holder', 'Cells',
           'models', 'model_aliases', 'model_info', 'gemm', 'gemm_values', 'gemm_verify',
           'gemm_match', 'gemm_generate', 'gemm_split_k', 'split_k_slices', 'split_k_match',
           'scaled_mm', 'BScales', 'GemmVerify', 'GemmMatch', 'Mismatch', 'SplitKMatch',
           'read_vectors', 'vec_types', 'VectorSuite', 'VectorField',
           'read_split_k_table', 'h100_split_k_table', 'SplitKTable', 'SplitKPrediction']
