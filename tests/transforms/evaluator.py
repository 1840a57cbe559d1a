"""A small numpy evaluator of tile IR, for checking that passes keep what programs compute.

`evaluate(module, "f", args)` runs the ``tt.func @f`` of ``module`` on numpy values (arrays,
0-d for scalars) and returns what it returns. Integers are int64 arrays holding the signless
value normalized to its width's signed range (two's complement, wrapping at the width, so
``i1`` true is -1 as ``255 : i8`` is -1); floats are float16/32/64 arrays computed in their
own precision. It covers arith (integer and float ops, comparisons, select, casts), the
tile-shape ops of tt (splat, broadcast, expand_dims, reshape, trans, make_range), reductions
(``tt.reduce`` folds its combine region along the axis, first element to last), scf (for, if,
while), calls, returns and cf branches. Undefined behaviour (division by zero,
signed MIN / -1, shifts by the width or more, out-of-range float-to-int) raises `Undefined`.

GPU IR: layouts are ignored (``ttg.convert_layout`` is the identity); a shared memory
descriptor is a numpy array, ``ttg.local_alloc`` a copy of its source (zeros without one) and
the ``ttg.memdesc_*`` views numpy views of it (``memdesc_index``, ``memdesc_subslice``,
``memdesc_trans``, ``memdesc_reshape``), so that ``ttg.local_store`` is seen through them;
``ttg.local_load`` copies, ``ttg.async_wait`` gives a token. ``tt.dot`` and
``ttng.warp_group_dot`` multiply in f32 (f64 for f64) and add the accumulator;
``ttg.fp4_to_fp`` decodes e2m1 pairs, ``tt.bitcast`` and ``tt.fp_to_fp`` (between the float
types numpy has) are arith's.

Memory: with ``memory={"f32": array, ...}`` (one flat numpy array per pointee element type),
a ``!tt.ptr<T>`` value is an int64 index into ``memory[T]``; ``tt.addptr`` adds element
offsets, ``tt.load`` gathers (lanes whose mask is false read ``other``, or 0 without it) and
``tt.store`` scatters into the arrays, in place. An access out of the array with the lane
enabled raises `Undefined`.
"""

from __future__ import annotations

import numpy as np

from tilecraft.ir import (
    BoolAttr, DenseElementsAttr, FloatAttr, IntegerAttr, Operation, RankedTensorType,
    element_type_of,
)

__all__ = ["Undefined", "evaluate", "normalize", "to_value", "same_values"]


class Undefined(Exception):
    """The program hit undefined behaviour; its result means nothing."""


_FLOAT_DTYPES = {"f16": np.float16, "f32": np.float32, "f64": np.float64}


def _pointee(type_):
    """The pointee of a pointer type or of a tensor of pointers, else None."""
    from tilecraft.generated.tt import PointerType

    element = element_type_of(type_)
    return element.pointee_type if isinstance(element, PointerType) else None


def _width(type_) -> int:
    if _pointee(type_) is not None:
        return 64
    element = element_type_of(type_)
    return 64 if element.is_index() else element.width


def _float_dtype(type_):
    element = element_type_of(type_)
    try:
        return _FLOAT_DTYPES[element.kind]
    except KeyError:
        raise NotImplementedError(f"floats of kind {element.kind}") from None


def normalize(values, width: int) -> np.ndarray:
    """Integers (any numpy integer array or Python ints) wrapped to ``width`` bits, signed."""
    array = np.asarray(values)
    if array.dtype == object or array.dtype.kind not in "iub":
        array = np.vectorize(lambda v: int(v) & ((1 << 64) - 1), otypes=[np.uint64])(array)
    unsigned = array.astype(np.uint64)
    if width < 64:
        unsigned = unsigned & np.uint64((1 << width) - 1)
        signed = unsigned.astype(np.int64)
        return np.where(signed >= (1 << (width - 1)), signed - (1 << width), signed)
    return unsigned.view(np.int64) if unsigned.ndim else np.asarray(unsigned).view(np.int64)


def _unsigned(values: np.ndarray, width: int) -> np.ndarray:
    unsigned = values.astype(np.uint64)
    if width < 64:
        unsigned &= np.uint64((1 << width) - 1)
    return unsigned


def to_value(type_, data) -> np.ndarray:
    """A value of ``type_`` from Python numbers or arrays (for arguments)."""
    shape = type_.shape if isinstance(type_, RankedTensorType) else ()
    if _pointee(type_) is None and element_type_of(type_).is_float():
        return np.broadcast_to(np.asarray(data, dtype=_float_dtype(type_)), shape).copy()
    return np.broadcast_to(normalize(np.asarray(data, dtype=object), _width(type_)),
                           shape).copy()


def same_values(a: np.ndarray, b: np.ndarray) -> bool:
    """Equal shapes and dtypes, bit-equal elements (any NaN equals any NaN)."""
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if a.dtype.kind == "f":
        both_nan = np.isnan(a) & np.isnan(b)
        bits = a.view(np.dtype(f"u{a.dtype.itemsize}")) == b.view(np.dtype(f"u{b.dtype.itemsize}"))
        return bool(np.all(both_nan | bits))
    return bool(np.array_equal(a, b))


# -- constants


def _constant(attr, type_) -> np.ndarray:
    if isinstance(attr, DenseElementsAttr):
        if attr.is_splat:
            values = np.asarray(attr.splat_value, dtype=object)
        else:
            values = np.asarray(attr.values, dtype=object).reshape(type_.shape)
        if element_type_of(type_).is_float():
            values = values.astype(np.float64)
        return to_value(type_, values)
    if isinstance(attr, BoolAttr):
        return to_value(type_, int(attr.value))
    if isinstance(attr, (IntegerAttr, FloatAttr)):
        return to_value(type_, attr.value)
    raise NotImplementedError(f"constant {attr}")


# -- arith


def _int_binary(name: str, a: np.ndarray, b: np.ndarray, width: int) -> np.ndarray:
    ua, ub = _unsigned(a, width), _unsigned(b, width)
    with np.errstate(over="ignore"):
        if name == "addi":
            return normalize(ua + ub, width)
        if name == "subi":
            return normalize(ua - ub, width)
        if name == "muli":
            return normalize(ua * ub, width)
        if name == "andi":
            return normalize(ua & ub, width)
        if name == "ori":
            return normalize(ua | ub, width)
        if name == "xori":
            return normalize(ua ^ ub, width)
    if name in ("maxsi", "minsi"):
        return np.maximum(a, b) if name == "maxsi" else np.minimum(a, b)
    if name in ("maxui", "minui"):
        picked = np.where((ua >= ub) == (name == "maxui"), a, b)
        return picked
    if name in ("shli", "shrsi", "shrui"):
        if np.any((ub >= width)):
            raise Undefined(f"{name} by {width} or more")
        amount = ub.astype(np.uint64)
        if name == "shli":
            return normalize(ua << amount, width)
        if name == "shrui":
            return normalize(ua >> amount, width)
        return normalize(a >> amount.astype(np.int64), width)
    if name in ("divsi", "remsi", "ceildivsi", "floordivsi"):
        if np.any(b == 0):
            raise Undefined(f"{name} by zero")
        if np.any((a == -(1 << (width - 1))) & (b == -1)):
            raise Undefined(f"{name} overflows")
        qa = np.vectorize(lambda x, y: _signed_div(name, int(x), int(y)), otypes=[object])(a, b)
        return normalize(qa, width)
    if name in ("divui", "remui"):
        if np.any(ub == 0):
            raise Undefined(f"{name} by zero")
        return normalize(ua // ub if name == "divui" else ua % ub, width)
    raise NotImplementedError(f"arith.{name}")


def _signed_div(name: str, x: int, y: int) -> int:
    quotient = abs(x) // abs(y) * (1 if (x < 0) == (y < 0) else -1)
    if name == "divsi":
        return quotient
    if name == "remsi":
        return x - quotient * y
    if name == "floordivsi":
        return x // y
    return -((-x) // y)  # ceildivsi


def _float_binary(name: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        if name == "addf":
            return a + b
        if name == "subf":
            return a - b
        if name == "mulf":
            return a * b
        if name == "divf":
            return a / b
        if name == "remf":
            return np.fmod(a, b)
        if name in ("maximumf", "minimumf"):
            nan = np.isnan(a) | np.isnan(b)
            if name == "maximumf":  # -0 < +0
                result = np.where(a > b, a, np.where(b > a, b, np.where(np.signbit(a), b, a)))
            else:
                result = np.where(a < b, a, np.where(b < a, b, np.where(np.signbit(a), a, b)))
            return np.where(nan, np.asarray(np.nan, dtype=a.dtype), result).astype(a.dtype)
        if name in ("maxnumf", "minnumf"):
            return np.fmax(a, b) if name == "maxnumf" else np.fmin(a, b)
    raise NotImplementedError(f"arith.{name}")


_CMPI = {
    0: lambda a, b, ua, ub: a == b, 1: lambda a, b, ua, ub: a != b,
    2: lambda a, b, ua, ub: a < b, 3: lambda a, b, ua, ub: a <= b,
    4: lambda a, b, ua, ub: a > b, 5: lambda a, b, ua, ub: a >= b,
    6: lambda a, b, ua, ub: ua < ub, 7: lambda a, b, ua, ub: ua <= ub,
    8: lambda a, b, ua, ub: ua > ub, 9: lambda a, b, ua, ub: ua >= ub,
}


def _cmpf(predicate: int, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    unordered = np.isnan(a) | np.isnan(b)
    with np.errstate(invalid="ignore"):
        base = {1: a == b, 2: a > b, 3: a >= b, 4: a < b, 5: a <= b, 6: a != b}
    if predicate == 0:
        return np.zeros(np.broadcast(a, b).shape, bool)
    if predicate == 15:
        return np.ones(np.broadcast(a, b).shape, bool)
    if predicate == 7:
        return ~unordered
    if predicate == 14:
        return unordered
    if predicate <= 6:
        return base[predicate] & ~unordered
    return base[predicate - 7] | unordered  # ueq .. une


def _bool(values: np.ndarray) -> np.ndarray:
    return normalize(values.astype(np.int64), 1)


def _cast(name: str, value: np.ndarray, in_type, out_type) -> np.ndarray:
    if name in ("extsi", "trunci", "index_cast"):
        return normalize(value, _width(out_type))
    if name == "extui":
        return normalize(_unsigned(value, _width(in_type)), _width(out_type))
    if name in ("sitofp", "uitofp"):
        if name == "uitofp":
            value = _unsigned(value, _width(in_type))
        with np.errstate(over="ignore"):  # beyond the float's range is inf, as in LLVM
            return value.astype(_float_dtype(out_type))
    if name in ("extf", "truncf"):
        with np.errstate(all="ignore"):
            return value.astype(_float_dtype(out_type))
    if name in ("fptosi", "fptoui"):
        width = _width(out_type)
        low, high = ((-(1 << (width - 1)), 1 << (width - 1)) if name == "fptosi"
                     else (0, 1 << width))
        truncated = np.trunc(value.astype(np.float64))
        if np.any(~np.isfinite(truncated)) or np.any(truncated < low) or np.any(truncated >= high):
            raise Undefined(f"{name} out of range")
        return normalize(np.asarray([int(v) for v in truncated.ravel()], dtype=object)
                         .reshape(truncated.shape), width)
    if name == "bitcast":
        if element_type_of(out_type).is_float():
            bits = _unsigned(value, _width(in_type)).astype(f"u{_width(in_type) // 8}")
            return bits.view(_float_dtype(out_type))
        if element_type_of(in_type).is_float():
            raw = value.view(f"u{value.dtype.itemsize}")
            return normalize(raw, _width(out_type))
        return value
    raise NotImplementedError(f"arith.{name}")


_CASTS = {"extsi", "extui", "trunci", "index_cast", "sitofp", "uitofp", "extf", "truncf",
          "fptosi", "fptoui", "bitcast"}


#: The values of the e2m1 codes 0 to 7 (bit 3 is the sign).
_E2M1 = np.array([0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0])


def _fp4_to_fp(packed: np.ndarray, axis: int, dtype) -> np.ndarray:
    """``ttg.fp4_to_fp``: each byte's low then high four bits, as e2m1 values, along ``axis``."""
    codes = _unsigned(packed, 8).astype(np.int64)
    halves = [codes & 0xF, codes >> 4]
    values = [np.where(h & 8, -1.0, 1.0) * _E2M1[h & 7] for h in halves]
    pairs = np.stack(values, axis=axis + 1)
    shape = list(packed.shape)
    shape[axis] *= 2
    return pairs.reshape(shape).astype(dtype)


# -- the interpreter


class _Machine:
    def __init__(self, module: Operation, memory: dict | None) -> None:
        self.module = module
        self.memory = memory if memory is not None else {}
        self.functions = {op.sym_name: op for op in module.regions[0].blocks[0]
                          if op.name == "tt.func"}
        self.steps = 0

    def call(self, name: str, args: list[np.ndarray]) -> list[np.ndarray]:
        func = self.functions[name]
        region = func.regions[0]
        return self.run_cfg(region, args)

    def run_cfg(self, region, args) -> list[np.ndarray]:
        """Run a region with branches until a return-like terminator; its operands."""
        env: dict = {}
        block, block_args = region.blocks[0], args
        while True:
            for arg, value in zip(block.arguments, block_args):
                env[arg] = value
            outcome = self.run_block(block, env)
            if outcome[0] == "branch":
                _, block, block_args = outcome
                continue
            return outcome[1]

    def run_block(self, block, env):
        for op in block:
            self.steps += 1
            if self.steps > 2_000_000:
                raise RuntimeError("the evaluator ran too long")
            name = op.name
            if name in ("tt.return", "scf.yield", "tt.reduce.return"):
                return ("return", [env[v] for v in op.operands])
            if name == "scf.condition":
                return ("condition", [env[v] for v in op.operands])
            if name == "cf.br":
                return ("branch", op.successors[0], [env[v] for v in op.operands])
            if name == "cf.cond_br":
                n_true = len(op.successors[0].arguments)
                cond = env[op.operands[0]]
                values = [env[v] for v in op.operands[1:]]
                if int(cond) != 0:
                    return ("branch", op.successors[0], values[:n_true])
                return ("branch", op.successors[1], values[n_true:])
            results = self.run_op(op, env)
            for result, value in zip(op.results, results):
                env[result] = value
        raise RuntimeError("a block without terminator")

    def run_region(self, region, env, args):
        """Run a single-block region seeing ``env``; the terminator's kind and operands."""
        block = region.blocks[0]
        inner = dict(env)
        for arg, value in zip(block.arguments, args):
            inner[arg] = value
        return self.run_block(block, inner)

    def run_op(self, op: Operation, env) -> list[np.ndarray]:
        name = op.name
        dialect, _, short = name.partition(".")
        operands = [env[v] for v in op.operands]
        result_type = op.results[0].type if op.results else None
        if name == "arith.constant":
            return [_constant(op.get_attr("value"), result_type)]
        if dialect == "arith":
            return [self.arith(op, short, operands)]
        if name == "tt.splat":
            return [np.broadcast_to(operands[0], result_type.shape).copy()]
        if name == "tt.broadcast":
            return [np.broadcast_to(operands[0], result_type.shape).copy()]
        if name == "tt.expand_dims":
            return [np.expand_dims(operands[0], op.axis)]
        if name == "tt.reshape":
            return [operands[0].reshape(result_type.shape)]
        if name == "tt.trans":
            return [np.transpose(operands[0], op.order)]
        if name == "tt.make_range":
            return [to_value(result_type, np.arange(op.start, op.end))]
        if name == "tt.call":
            return self.call(op.callee, operands)
        if name == "tt.reduce":
            return self.reduce(op, env, operands)
        if name == "tt.addptr":
            return [(operands[0] + operands[1]).astype(np.int64)]
        if name == "tt.load":
            return [self.load(op, env)]
        if name == "tt.store":
            self.store(op, env)
            return []
        if dialect in ("ttg", "ttng") or name in ("tt.dot", "tt.bitcast", "tt.fp_to_fp"):
            return self.gpu(op, operands)
        if name == "scf.if":
            region = op.regions[0] if int(operands[0]) != 0 else op.regions[1]
            if not region.blocks:
                return []
            return self.run_region(region, env, [])[1]
        if name == "scf.for":
            return self.run_for(op, env, operands)
        if name == "scf.while":
            values = operands
            while True:
                kind, out = self.run_region(op.regions[0], env, values)
                if int(out[0]) == 0:
                    return out[1:]
                values = self.run_region(op.regions[1], env, out[1:])[1]
        raise NotImplementedError(f"the evaluator does not know '{name}'")

    def reduce(self, op, env, operands) -> list[np.ndarray]:
        """``tt.reduce``: the combine region folds the elements along the axis in order."""
        axis = op.axis
        totals = [np.take(x, 0, axis=axis) for x in operands]
        for index in range(1, operands[0].shape[axis]):
            following = [np.take(x, index, axis=axis) for x in operands]
            totals = self.run_region(op.regions[0], env, totals + following)[1]
        return [np.asarray(total) for total in totals]

    def gpu(self, op, operands) -> list[np.ndarray]:
        """The GPU-IR ops of the module docstring."""
        name = op.name
        result_type = op.results[0].type if op.results else None
        if name == "ttg.convert_layout":
            return [operands[0]]
        if name == "ttg.local_alloc":
            if operands:
                return [np.array(operands[0], copy=True)]
            return [to_value(RankedTensorType(result_type.alloc_shape or result_type.shape,
                                              result_type.element_type), 0).copy()]
        if name == "ttg.local_load":
            return [np.array(operands[0], copy=True)]
        if name == "ttg.local_store":
            operands[1][...] = operands[0]
            return []
        if name == "ttg.local_dealloc":
            return []
        if name == "ttg.memdesc_index":
            return [operands[0][int(operands[1])]]
        if name == "ttg.memdesc_subslice":
            box = tuple(slice(o, o + n) for o, n in zip(op.offsets, result_type.shape))
            return [operands[0][box]]
        if name == "ttg.memdesc_trans":
            return [np.transpose(operands[0], op.order)]
        if name == "ttg.memdesc_reshape":
            return [operands[0].reshape(result_type.shape)]
        if name == "ttg.async_wait":
            return [np.zeros((), np.int64)]
        if name == "tt.bitcast":
            return [_cast("bitcast", operands[0], op.operands[0].type, result_type)]
        if name == "tt.fp_to_fp":
            return [operands[0].astype(_float_dtype(result_type))]
        if name == "ttg.fp4_to_fp":
            return [_fp4_to_fp(operands[0], op.axis, _float_dtype(result_type))]
        if name in ("tt.dot", "ttng.warp_group_dot"):
            a, b, c = operands[:3]
            wide = np.float64 if c.dtype == np.float64 else np.float32
            with np.errstate(invalid="ignore"):  # NaN operands give NaN, quietly
                product = np.matmul(a.astype(wide), b.astype(wide))
            return [(product + c.astype(wide)).astype(c.dtype)]
        raise NotImplementedError(f"the evaluator does not know '{name}'")

    def _buffer(self, ptr_type):
        key = str(_pointee(ptr_type))
        if key not in self.memory:
            raise Undefined(f"no memory for {key}")
        return self.memory[key]

    def _lanes(self, op, env, ptrs, mask_value):
        buffer = self._buffer(op.operands[0].type)
        enabled = np.ones(ptrs.shape, bool) if mask_value is None else (mask_value != 0)
        if np.any(enabled & ((ptrs < 0) | (ptrs >= len(buffer)))):
            raise Undefined(f"{op.name} out of bounds")
        return buffer, enabled, np.where(enabled, ptrs, 0)

    def load(self, op, env) -> np.ndarray:
        ptrs = env[op.ptr]
        mask = env[op.mask] if op.mask is not None else None
        buffer, enabled, safe = self._lanes(op, env, ptrs, mask)
        result_type = op.results[0].type
        if op.other is not None:
            fallback = env[op.other]
        else:
            fallback = to_value(result_type, 0)
        loaded = to_value(result_type, buffer[safe]) if element_type_of(result_type).is_float() \
            else normalize(buffer[safe], _width(result_type))
        return np.where(enabled, loaded, fallback).astype(loaded.dtype)

    def store(self, op, env) -> None:
        ptrs = env[op.ptr]
        mask = env[op.mask] if op.mask is not None else None
        buffer, enabled, safe = self._lanes(op, env, ptrs, mask)
        values = np.broadcast_to(env[op.value], ptrs.shape)
        for index, value, on in zip(np.ravel(safe), np.ravel(values), np.ravel(enabled)):
            if on:
                buffer[int(index)] = value

    def run_for(self, op, env, operands):
        lb, ub, step = (int(v) for v in operands[:3])
        iv_type = op.operands[0].type
        if op.get_attr("unsignedCmp") is not None:
            width = _width(iv_type)
            lb, ub, step = lb % (1 << width), ub % (1 << width), step % (1 << width)
        if step <= 0:
            raise Undefined("scf.for with a step that is not positive")
        values = operands[3:]
        iv = lb
        while iv < ub:
            args = [to_value(iv_type, iv), *values]
            values = self.run_region(op.regions[0], env, args)[1]
            iv += step
            if op.get_attr("unsignedCmp") is None and iv >= (1 << (_width(iv_type) - 1)):
                break
        return values

    def arith(self, op, short: str, operands):
        result_type = op.results[0].type
        if short == "select":
            cond = operands[0] != 0
            return np.where(cond, operands[1], operands[2]).astype(operands[1].dtype)
        if short == "cmpi":
            a, b = operands
            width = _width(op.operands[0].type)
            return _bool(_CMPI[int(op.get_attr("predicate").value)](
                a, b, _unsigned(a, width), _unsigned(b, width)))
        if short == "cmpf":
            return _bool(_cmpf(int(op.get_attr("predicate").value), *operands))
        if short == "negf":
            return -operands[0]
        if short in _CASTS:
            return _cast(short, operands[0], op.operands[0].type, result_type)
        if element_type_of(result_type).is_float():
            return np.asarray(_float_binary(short, *operands), dtype=_float_dtype(result_type))
        return _int_binary(short, *operands, _width(result_type))


def evaluate(module: Operation, function: str, args, memory: dict | None = None
             ) -> list[np.ndarray]:
    """Run ``tt.func @function`` of ``module`` on ``args`` (numpy values, see `to_value`),
    loads and stores going to ``memory`` (see the module docstring; changed in place)."""
    return _Machine(module, memory).call(function, list(args))
