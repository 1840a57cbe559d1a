"""LLVM IR text to PTX (llvmlite's NVPTX target) and PTX to a cubin (``ptxas``), with the search
for libdevice and ptxas.

`llvm_to_ptx` parses and verifies the module, checks that every function it declares is one
NVPTX can compile (LLVM aborts the whole process on the others, "Cannot select" or "no libcall
available", so the check runs before any code generation; see `SELECTABLE_INTRINSICS`), links
the libdevice functions it calls, runs LLVM's O3 pipeline and emits PTX. `ptx_to_cubin` runs
``ptxas -O3 -v`` (in the process where it can, see below) and reads the registers, spills and
static shared memory it reports.

libdevice is parsed once per set of ``__nv_*`` functions a process asks for: the first time,
the whole bitcode is parsed, everything the set does not reach is dropped and the remainder is
kept as bitcode of a few kilobytes, which later links parse in well under a millisecond.

Measured on the 2-core AMD EPYC development machine (llvmlite 0.50 = LLVM 22, ptxas 13.0), for
a 3-argument kernel with one ``<4 x float>`` load and store, warm process, sm_90a:

- `llvm_to_ptx` without libdevice: 2.5 ms (the first call in a process: 8 ms);
- `llvm_to_ptx` calling ``__nv_expf``: 3.8 ms once its libdevice subset is cached, 46 ms for
  the first call with a new set of libdevice functions (one parse of libdevice.10.bc: 30 ms;
  cloning a parsed copy instead costs 40 ms, more than parsing again);
- `ptx_to_cubin`: 15 ms (a ptxas subprocess).

On the H200 host (16-core Xeon, CUDA 13.0), a ptxas subprocess took 19 ms for vector add, of
which ptxas reported 5 ms of compiling; `ptx_to_cubin` assembles in the process through
nvJitLink (`jitlink`) once the library has loaded in the background.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import re
import shlex
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path
from typing import NamedTuple

import llvmlite.binding as llvm

from . import jitlink

TRIPLE = "nvptx64-nvidia-cuda"

# LLVM's global context and the cached TargetMachines serve one compilation at a time.
_LOCK = threading.Lock()

# Compute capability -> the PTX ISA version generated for it: 8.6 (CUDA 12.7's ptxas or newer)
# where LLVM accepts it, because LLVM 22's TMA intrinsics need it; newer GPUs need newer PTX
# (LLVM aborts the process on a PTX version below the target's minimum).
_PTX_VERSION: dict[int, int] = {
    75: 86, 80: 86, 86: 86, 87: 86, 89: 86, 90: 86,
    100: 86, 103: 88, 110: 90, 120: 87, 121: 88,
}

# Families of ``llvm.*`` intrinsics (the name without ``llvm.`` and without its type suffixes)
# that LLVM 22's NVPTX back end compiles, mapped to the element types allowed (None: every type
# the verifier accepts). Each entry was compiled for f16, bf16, f32, f64, <4 x float> and
# <2 x half> (floating-point families) or i8..i64 and <4 x i32> (integer families), for sm_80
# and sm_90a, in a child process, and the PTX assembled with ptxas; tests/backends/cuda checks
# the list the same way. Left out because they abort the process: exp, exp10, log, log2,
# log10, sin, cos, tan, asin, acos, atan, atan2, sinh, cosh, tanh, pow, powi, lrint, lround
# (every type), exp2.f64, canonicalize for bf16 and <2 x half>, and masked.load.
SELECTABLE_INTRINSICS: dict[str, frozenset[str] | None] = {
    **dict.fromkeys([
        # floating point
        "fabs", "sqrt", "floor", "ceil", "trunc", "rint", "nearbyint", "round", "roundeven",
        "copysign", "minnum", "maxnum", "minimum", "maximum", "minimumnum", "maximumnum",
        "fma", "fmuladd", "ldexp", "frexp", "is.fpclass", "fptosi.sat", "fptoui.sat",
        # integer
        "ctlz", "cttz", "ctpop", "bitreverse", "bswap", "abs", "smax", "smin", "umax", "umin",
        "sadd.sat", "uadd.sat", "ssub.sat", "usub.sat", "sshl.sat", "ushl.sat", "fshl", "fshr",
        "sadd.with.overflow", "uadd.with.overflow", "ssub.with.overflow",
        "usub.with.overflow", "smul.with.overflow", "umul.with.overflow", "scmp", "ucmp",
        # reductions of vectors
        "vector.reduce.add", "vector.reduce.mul", "vector.reduce.and", "vector.reduce.or",
        "vector.reduce.xor", "vector.reduce.smax", "vector.reduce.smin", "vector.reduce.umax",
        "vector.reduce.umin", "vector.reduce.fadd", "vector.reduce.fmul",
        "vector.reduce.fmax", "vector.reduce.fmin", "vector.reduce.fmaximum",
        "vector.reduce.fminimum",
        # memory, hints and debugging
        "memcpy", "memmove", "memset", "lifetime.start", "lifetime.end", "invariant.start",
        "invariant.end", "assume", "expect", "prefetch", "ptrmask", "trap", "debugtrap",
        "readcyclecounter", "sideeffect", "donothing", "dbg.declare", "dbg.value",
        "dbg.label",
    ], None),
    "exp2": frozenset({"f16", "bf16", "f32"}),
    "canonicalize": frozenset({"f32", "f64"}),
}

# Functions PTX provides to every kernel (CUDA's device-side printf and assert).
_PTX_SYSCALLS = frozenset({"vprintf", "__assertfail"})

_ENTRY = re.compile(r"^ptxas info\s*: Compiling entry function '([^']+)'", re.MULTILINE)
_SPILLS = re.compile(r"(\d+) bytes spill stores")
_REGISTERS = re.compile(r"Used (\d+) registers")
_SHARED = re.compile(r"(\d+) bytes smem")


class ToolchainError(Exception):
    """The module cannot be compiled to PTX (invalid IR, a function NVPTX cannot compile, an
    unknown GPU), or a tool is missing; the message says which and why."""


class PTXASError(Exception):
    """ptxas rejected the PTX; the message carries its log and the command that reproduces the
    failure, with the PTX kept in the file that command names."""


class CubinResult(NamedTuple):
    """A cubin (ELF) and what ``ptxas -v`` reported for its kernel: registers per thread, bytes
    of spill stores, bytes of static shared memory, and the whole log."""

    cubin: bytes
    registers: int
    spills: int
    shared: int
    log: str


def _site_folders(namespace: str) -> list[Path]:
    """The folders of an installed (namespace) package, found without importing it."""
    try:
        spec = importlib.util.find_spec(namespace)
    except (ImportError, ValueError):
        return []
    if spec is None or spec.submodule_search_locations is None:
        return []
    return [Path(folder) for folder in spec.submodule_search_locations]


def _cuda_homes() -> list[Path]:
    homes = [os.environ.get(name) for name in ("CUDA_HOME", "CUDA_PATH")]
    return [Path(home) for home in homes if home]


def _first_file(candidates: list[Path]) -> Path | None:
    return next((path for path in candidates if path.is_file()), None)


def find_libdevice() -> Path:
    """libdevice.10.bc: $TILECRAFT_LIBDEVICE, then nvvm/libdevice under $CUDA_HOME, $CUDA_PATH
    and /usr/local/cuda, then the copies in Triton's package and in NVIDIA's nvcc wheels."""
    explicit = os.environ.get("TILECRAFT_LIBDEVICE")
    if explicit:
        if not Path(explicit).is_file():
            raise ToolchainError(f"TILECRAFT_LIBDEVICE={explicit} is not a file")
        return Path(explicit)
    name = "libdevice.10.bc"
    candidates = [home / "nvvm" / "libdevice" / name
                  for home in [*_cuda_homes(), Path("/usr/local/cuda")]]
    candidates += [folder / "backends" / "nvidia" / "lib" / name
                   for folder in _site_folders("triton")]
    candidates += [folder / wheel / "nvvm" / "libdevice" / name
                   for folder in _site_folders("nvidia") for wheel in ("cu13", "cuda_nvcc")]
    found = _first_file(candidates)
    if found is None:
        raise ToolchainError(
            "libdevice.10.bc not found (the kernel calls libdevice's __nv_* math functions); "
            "set TILECRAFT_LIBDEVICE to its path, or CUDA_HOME to a CUDA toolkit, or install "
            "nvidia-cuda-nvcc. Looked at: " + ", ".join(str(path) for path in candidates))
    return found


def find_ptxas() -> Path:
    """ptxas: $TILECRAFT_PTXAS, then PATH, then bin/ under $CUDA_HOME, $CUDA_PATH and
    /usr/local/cuda, then NVIDIA's nvcc wheels and the copy in Triton's package."""
    explicit = os.environ.get("TILECRAFT_PTXAS")
    if explicit:
        if not (Path(explicit).is_file() and os.access(explicit, os.X_OK)):
            raise ToolchainError(f"TILECRAFT_PTXAS={explicit} is not an executable file")
        return Path(explicit)
    on_path = shutil.which("ptxas")
    if on_path:
        return Path(on_path)
    candidates = [home / "bin" / "ptxas" for home in [*_cuda_homes(), Path("/usr/local/cuda")]]
    candidates += [folder / wheel / "bin" / "ptxas"
                   for folder in _site_folders("nvidia") for wheel in ("cu13", "cuda_nvcc")]
    candidates += [folder / "backends" / "nvidia" / "bin" / "ptxas"
                   for folder in _site_folders("triton")]
    found = next((path for path in candidates if path.is_file() and os.access(path, os.X_OK)),
                 None)
    if found is None:
        raise ToolchainError(
            "ptxas not found; put it on PATH, set TILECRAFT_PTXAS to it or CUDA_HOME to a CUDA "
            "toolkit, or install nvidia-cuda-nvcc. Looked at: "
            + ", ".join(str(path) for path in candidates))
    return found


def gpu_name(capability: int) -> str:
    """ptxas's and LLVM's name for a compute capability: ``sm_80``, and ``sm_90a`` (the
    architecture-specific features: wgmma, setmaxnreg, ...) from Hopper on."""
    if capability not in _PTX_VERSION:
        known = ", ".join(str(cc) for cc in _PTX_VERSION)
        raise ToolchainError(f"no NVPTX target for compute capability {capability} "
                             f"(known: {known})")
    return f"sm_{capability}a" if capability >= 90 else f"sm_{capability}"


@functools.cache
def _initialize() -> None:
    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()


@functools.cache
def _target_machine(capability: int) -> llvm.TargetMachine:
    cpu = gpu_name(capability)
    _initialize()
    # 32-bit shared-memory pointers (the data layout's p3:32), as Triton compiles: shared
    # addresses, and the wgmma descriptors made from them, take one register and 32-bit
    # arithmetic instead of two and 64-bit ops (an LLVM option of the whole process, read
    # when a target machine is made)
    llvm.set_option("tilecraft", "--nvptx-short-ptr")
    return llvm.Target.from_triple(TRIPLE).create_target_machine(
        cpu=cpu, features=f"+ptx{_PTX_VERSION[capability]}", opt=3)


def _family_allows(name: str) -> bool:
    """Whether ``llvm.<name>`` is in `SELECTABLE_INTRINSICS`: the longest family that is
    ``name`` or a dot-separated prefix of it, and the element type of its first overload
    suffix (``v4f32`` -> ``f32``) when the family limits types."""
    parts = name.split(".")
    for length in range(len(parts), 0, -1):
        family = ".".join(parts[:length])
        if family in SELECTABLE_INTRINSICS:
            allowed = SELECTABLE_INTRINSICS[family]
            if allowed is None:
                return True
            suffixes = parts[length:]
            element = re.sub(r"^(nx)?v\d+", "", suffixes[0]) if suffixes else ""
            return element in allowed
    return False


def _check_declarations(module: llvm.ModuleRef, *, libdevice_ok: bool) -> None:
    """Raises `ToolchainError` naming the first declared function NVPTX cannot compile."""
    for function in module.functions:
        if not function.is_declaration:
            continue
        name = function.name
        if name.startswith("llvm."):
            if name.startswith("llvm.nvvm.") or _family_allows(name[len("llvm."):]):
                continue
            raise ToolchainError(
                f"the module calls {name}, which LLVM's NVPTX back end cannot compile (it would "
                f"abort the process); call libdevice (__nv_*) or an llvm.nvvm.* intrinsic")
        if name.startswith("__nv_"):
            if libdevice_ok:
                continue
            raise ToolchainError(f"the module calls libdevice's {name}, but libdevice=False")
        if name in _PTX_SYSCALLS:
            continue
        raise ToolchainError(
            f"the module calls {name}, which it does not define; a CUDA kernel may call only "
            f"its own functions, LLVM intrinsics NVPTX compiles, llvm.nvvm.* intrinsics, "
            f"libdevice's __nv_* functions, vprintf and __assertfail")


@functools.cache
def _libdevice_subset(path: Path, names: frozenset[str], capability: int) -> bytes:
    """Bitcode holding the libdevice functions ``names`` and what they call, nothing else.
    Raises `ToolchainError` for a name libdevice does not define."""
    library = llvm.parse_bitcode(path.read_bytes())
    defined = {function.name for function in library.functions if not function.is_declaration}
    missing = sorted(names - defined)
    if missing:
        raise ToolchainError(f"libdevice ({path}) defines no function {', '.join(missing)}")
    for function in library.functions:
        if not function.is_declaration and function.name not in names:
            function.linkage = "internal"
    passes = llvm.create_new_module_pass_manager()
    passes.add_global_dead_code_eliminate_pass()
    passes.run(library, llvm.create_pass_builder(
        _target_machine(capability), llvm.create_pipeline_tuning_options(speed_level=0)))
    return library.as_bitcode()


def _link_libdevice(module: llvm.ModuleRef, names: frozenset[str], capability: int, *,
                    set_ftz_flag: bool) -> None:
    library = llvm.parse_bitcode(_libdevice_subset(find_libdevice(), names, capability))
    library.triple = module.triple
    library.data_layout = module.data_layout
    module.link_in(library)
    for name in names:
        module.get_function(name).linkage = "internal"
    if set_ftz_flag:
        # libdevice branches on __nvvm_reflect("__CUDA_FTZ"), which NVVMReflect answers from
        # this flag (0: keep denormals, as clang does without -fcuda-flush-denormals-to-zero).
        flags = llvm.parse_assembly(
            '!llvm.module.flags = !{!0}\n!0 = !{i32 4, !"nvvm-reflect-ftz", i32 0}\n')
        flags.triple = module.triple
        flags.data_layout = module.data_layout
        module.link_in(flags)


def llvm_to_ptx(llir: str, capability: int, *, libdevice: bool | None = None) -> str:
    """PTX for the LLVM IR module ``llir`` on compute capability ``capability`` (80, 90, ...).

    The module's triple and data layout are replaced by NVPTX's. ``libdevice``: None links
    libdevice when the module declares ``__nv_*`` functions, False refuses such modules, True
    also requires libdevice to be found. Raises `ToolchainError` for IR LLVM rejects, for a
    function NVPTX cannot compile (before LLVM sees it) and when libdevice is missing.
    """
    machine = _target_machine(capability)
    with _LOCK:
        try:
            module = llvm.parse_assembly(llir)
            module.verify()
        except RuntimeError as error:
            raise ToolchainError(f"invalid LLVM IR: {str(error).strip()}") from None
        _check_declarations(module, libdevice_ok=libdevice is not False)
        module.triple = TRIPLE
        module.data_layout = str(machine.target_data)
        wanted = frozenset(function.name for function in module.functions
                           if function.is_declaration and function.name.startswith("__nv_"))
        if libdevice:
            find_libdevice()
        if wanted:
            _link_libdevice(module, wanted, capability,
                            set_ftz_flag="nvvm-reflect-ftz" not in llir)
        builder = llvm.create_pass_builder(machine,
                                           llvm.create_pipeline_tuning_options(speed_level=3))
        builder.getModulePassManager().run(module, builder)
        # O3 may introduce intrinsics of its own (memset, memcpy ...): check again.
        _check_declarations(module, libdevice_ok=False)
        return machine.emit_assembly(module)


def _kernel_report(log: str, name: str) -> str:
    """The lines of ``ptxas -v`` output about entry ``name`` (all of it if it names none)."""
    starts = [(match.start(), match.group(1)) for match in _ENTRY.finditer(log)]
    for index, (start, entry) in enumerate(starts):
        if entry == name:
            end = starts[index + 1][0] if index + 1 < len(starts) else len(log)
            return log[start:end]
    return log


def _reported(pattern: re.Pattern[str], text: str) -> int:
    match = pattern.search(text)
    return int(match.group(1)) if match else 0


def cubin_arch(cubin: bytes) -> int:
    """The compute capability a cubin was assembled for (80, 90): the second byte of its ELF
    header's ``e_flags``."""
    if cubin[:4] != b"\x7fELF" or len(cubin) < 52:
        raise ToolchainError("not a cubin (an ELF file)")
    return (int.from_bytes(cubin[48:52], "little") >> 8) & 0xFF


def start_assembler(capability: int) -> jitlink.Assembler | None:
    """`jitlink.ready`, warming nvJitLink up (where this call starts its load) on
    ``capability``'s target."""
    if capability not in _PTX_VERSION:  # (its compiles fail on their own: no target)
        return jitlink.ready()
    version = _PTX_VERSION[capability]
    return jitlink.ready(gpu_name(capability), f"{version // 10}.{version % 10}")


def ptx_to_cubin(ptx: str, capability: int, *, name: str = "kernel") -> CubinResult:
    """Assembles ``ptx`` with ``ptxas -O3 -v`` for ``capability``, in the process through
    nvJitLink once it is loaded (`jitlink`), else with a ptxas subprocess; ``name`` is the
    kernel whose registers, spills and shared memory are reported (and names the files).
    Raises `PTXASError` with ptxas's log and the command line when ptxas fails; the PTX is then
    left in the file that command names."""
    assembler = start_assembler(capability)
    if assembler is not None:
        try:
            cubin, log = assembler.assemble(ptx, gpu_name(capability), name)
        except jitlink.JitLinkError:
            pass  # ptxas runs it: its failure gets the reproducible command line
        else:
            report = _kernel_report(log, name)
            if _REGISTERS.search(report):
                return CubinResult(cubin=cubin, registers=_reported(_REGISTERS, report),
                                   spills=_reported(_SPILLS, report),
                                   shared=_reported(_SHARED, report), log=log)
    result = _ptxas(ptx, capability, name)
    if assembler is not None:
        jitlink.disable()  # ptxas took what nvJitLink refused or did not report on
    return result


def _ptxas(ptx: str, capability: int, name: str) -> CubinResult:
    """`ptx_to_cubin` with a ptxas subprocess."""
    command_prefix = [str(find_ptxas()), "--gpu-name", gpu_name(capability), "-O3", "-v"]
    workdir = Path(tempfile.mkdtemp(prefix="tilecraft-ptxas-"))
    stem = re.sub(r"[^A-Za-z0-9_.-]", "_", name) or "kernel"
    ptx_path, cubin_path = workdir / f"{stem}.ptx", workdir / f"{stem}.cubin"
    ptx_path.write_text(ptx)
    command = [*command_prefix, str(ptx_path), "-o", str(cubin_path)]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    log = (result.stdout + result.stderr).strip()
    if result.returncode != 0:
        cubin_path.unlink(missing_ok=True)
        raise PTXASError(f"ptxas failed for {name!r} (exit status {result.returncode}):\n{log}\n"
                         f"reproduce with: {shlex.join(command)}")
    cubin = cubin_path.read_bytes()
    shutil.rmtree(workdir, ignore_errors=True)
    report = _kernel_report(log, name)
    return CubinResult(cubin=cubin, registers=_reported(_REGISTERS, report),
                       spills=_reported(_SPILLS, report), shared=_reported(_SHARED, report),
                       log=log)
