"""tilecraft.language (``import tilecraft.language as tl``): the kernel language, with Triton's
names and semantics, so that a Triton kernel ports by changing its imports.

`docs/language.md` lists the supported names.
"""

from . import math, random, semantic  # noqa: F401
from .elementwise import *  # noqa: F401,F403 - the top-level functions `.td` declares
from .core import (  # noqa: F401
    PropagateNan, bfloat16, block_type, builtin, constexpr, dtype, float8e4nv, float8e5,
    float8e4b8, float8e4b15, float8e5b16,
    float16, float32, float64, int1, int8, int16, int32, int64, is_builtin, pi32_t,
    pointer_type, str_to_ty, tensor, tensor_descriptor, tensor_descriptor_type, uint8, uint16,
    uint32, uint64, void,
)
from .functions import (  # noqa: F401
    abs, advance, arange, associative_scan, assume, atomic_add, atomic_and, atomic_cas,
    atomic_max, atomic_min, atomic_or, atomic_xchg, atomic_xor, broadcast, broadcast_to, cast,
    cat, clamp, debug_barrier, device_assert, device_print, div_rn, dot, expand_dims, fdiv, fma,
    full, gather, histogram, interleave, join, load, load_tensor_descriptor, make_block_ptr,
    make_tensor_descriptor, max_constancy, max_contiguous,
    maximum, minimum, multiple_of, num_programs, permute, program_id, range, ravel, reduce,
    reshape, split, static_assert, static_print, static_range, store, store_tensor_descriptor,
    trans, umulhi, view,
    where, zeros, zeros_like,
)
from .random import (  # noqa: F401
    pair_uniform_to_normal, philox, philox_impl, rand, rand4x, randint, randint4x, randn,
    randn4x, uint_to_uniform_float,
)
from .standard import (  # noqa: F401
    argmax, argmin, cdiv, cumprod, cumsum, flip, max, min, sigmoid, softmax, sort, sum,
    swizzle2d, xor_sum,
)

float8e4 = float8e4nv
