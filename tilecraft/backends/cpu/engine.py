"""llvmlite glue for the CPU target: the host target, LLVM IR text to optimized object code, and
object code loaded into an MCJIT execution engine.

Compilation (`compile_module`) and loading (`JITLibrary`) are separate so that a compile-cache
hit goes from the cached object bytes straight to an engine, with no LLVM optimization or code
generation. The host assembly text is generated only when it is read (`assembly`): it is a
second code generation of the whole module, as long as the object's. LLVM aborts the process on
some bad input, so everything handed to it is checked first: IR text is parsed and verified
(errors become `LLVMError`), and object bytes are read as ELF by this module, which also checks
that every symbol they import can be resolved.
"""

from __future__ import annotations

import ctypes
import functools
import os
import struct
import sys
import threading

import llvmlite
import llvmlite.binding as llvm

# The host's TargetMachine and the global LLVM context serve every compilation and load: one at
# a time.
_LOCK = threading.Lock()


class LLVMError(RuntimeError):
    """LLVM rejected a module or an object file; the message is LLVM's (or says what is wrong
    with the object)."""


# (The small classes of this module are written out rather than made by dataclasses, whose
# code generation cost a first compile about a millisecond per class.)


class HostTarget:
    """The machine this process runs on, as LLVM names it, and a TargetMachine for it (O3, the
    JIT's code model) that `compile_module` shares."""

    __slots__ = ("triple", "cpu", "features", "machine")

    def __init__(self, triple: str, cpu: str, features: str,
                 machine: llvm.TargetMachine) -> None:
        self.triple = triple
        self.cpu = cpu
        self.features = features
        self.machine = machine


class CompiledObject:
    """What `compile_module` produces: the optimized IR text and the relocatable object code
    (ELF) that `JITLibrary` loads; ``asm``, the host assembly text, is generated on first use."""

    __slots__ = ("llir", "obj", "_asm")

    def __init__(self, llir: str, obj: bytes) -> None:
        self.llir = llir
        self.obj = obj
        self._asm: str | None = None

    @property
    def asm(self) -> str:
        """The host assembly of ``llir`` (see `assembly`)."""
        if self._asm is None:
            self._asm = assembly(self.llir)
        return self._asm


@functools.cache
def _initialize() -> None:
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()


def _create_machine(triple: str, cpu: str, features: str, level: int = 3
                    ) -> llvm.TargetMachine:
    # "jitdefault" is the large code model on 64-bit hosts: the object's calls to libm and to
    # the runtime's callbacks may land anywhere in the address space.
    return llvm.Target.from_triple(triple).create_target_machine(
        cpu=cpu, features=features, opt=level, reloc="default", codemodel="jitdefault",
        jit=True)


@functools.cache
def host_target() -> HostTarget:
    """The host's triple, CPU name and feature string, with a TargetMachine for them."""
    _initialize()
    triple = llvm.get_process_triple()
    cpu = llvm.get_host_cpu_name()
    features = llvm.get_host_cpu_features().flatten()
    return HostTarget(triple, cpu, features, _create_machine(triple, cpu, features))


def host_cache_key_parts() -> tuple[str, ...]:
    """What CPU cache keys must fold in: code for one host or LLVM is not valid for another,
    nor code with AMX instructions for a process that may not run them (asking for that also
    requests the permission, so a process loads AMX code only once it holds it)."""
    target = host_target()
    llvm_version = ".".join(str(part) for part in llvm.llvm_version_info)
    return (target.triple, target.cpu, target.features, f"llvmlite {llvmlite.__version__}",
            f"LLVM {llvm_version}", f"AMX bf16 {'on' if host_amx_bf16() else 'off'}",
            f"last-level cache {host_cache_bytes()}")


# Where Linux describes CPU 0's caches (a folder per cache, with its type and size), and the
# size taken where it does not.
_CACHES = "/sys/devices/system/cpu/cpu0/cache"
_DEFAULT_CACHE_BYTES = 32 << 20
_SIZE_UNITS = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}


@functools.cache
def host_cache_bytes() -> int:
    """The size in bytes of the largest data or unified cache of CPU 0 (its last level, as
    Linux's sysfs gives it: the L3 of its socket or chiplet), or 32 MiB where that cannot be
    read. Launches that store more than this stream their stores (`streaming`)."""
    sizes = []
    try:
        folders = os.listdir(_CACHES)
    except OSError:
        return _DEFAULT_CACHE_BYTES
    for folder in folders:
        try:
            with open(os.path.join(_CACHES, folder, "type"), encoding="ascii") as file:
                kind = file.read().strip()
            with open(os.path.join(_CACHES, folder, "size"), encoding="ascii") as file:
                text = file.read().strip()
        except (OSError, UnicodeDecodeError):
            continue
        if kind != "Instruction" and text[:-1].isdigit() and text[-1:] in _SIZE_UNITS:
            sizes.append(int(text[:-1]) * _SIZE_UNITS[text[-1]])
    return max(sizes, default=_DEFAULT_CACHE_BYTES)


# Linux's arch_prctl(2) (x86-64): the request for permission to use an XSAVE feature, and the
# feature number of AMX's tile data.
_SYS_ARCH_PRCTL = 158
_ARCH_REQ_XCOMP_PERM = 0x1023
_XFEATURE_XTILEDATA = 18


@functools.cache
def host_amx_bf16() -> bool:
    """Whether this process may run AMX bf16 tile instructions (``tdpbf16ps``): the host CPU has
    AMX-TILE and AMX-BF16, and Linux granted the process the tile data state, which it must ask
    for before the first tile instruction (``arch_prctl(ARCH_REQ_XCOMP_PERM,
    XFEATURE_XTILEDATA)``, Linux 5.16 and later; the permission holds for all its threads).
    Asked once per process."""
    features = set(host_target().features.split(","))
    if not {"+amx-tile", "+amx-bf16"} <= features or sys.platform != "linux":
        return False
    libc = ctypes.CDLL(None, use_errno=True)
    answer = libc.syscall(ctypes.c_long(_SYS_ARCH_PRCTL), ctypes.c_long(_ARCH_REQ_XCOMP_PERM),
                          ctypes.c_ulong(_XFEATURE_XTILEDATA))
    return answer == 0


def compile_module(llvm_ir: str, name: str, *, quick: bool = False) -> CompiledObject:
    """Parses and verifies ``llvm_ir``, retargets it to the host, and generates its object code:
    optimized at O3 (loop and SLP vectorization on, loop unrolling off), or, ``quick``, with no
    optimization and LLVM's level-0 code generation (fast instruction selection and register
    allocation), which takes a tenth of the time for code that runs several times slower.
    Raises `LLVMError` for text LLVM rejects.

    Unrolling is off because it cost more than it earned on the lowering's loops: it roughly
    doubled the time of a small kernel's optimization and code generation (fully unrolled
    vectorized loops), and kernels ran within a few percent either way (the blocked matmul
    faster without it; see ``tools/bench/cpu_launch.py`` and ``cpu_backend.py``)."""
    target = host_target()
    machine = quick_machine() if quick else target.machine
    with _LOCK:
        module = _parse(llvm_ir, name)
        module.name = name
        module.triple = target.triple
        module.data_layout = str(machine.target_data)
        if not quick:
            options = llvm.create_pipeline_tuning_options(speed_level=3)
            options.loop_vectorization = True
            options.slp_vectorization = True
            options.loop_unrolling = False
            builder = llvm.create_pass_builder(machine, options)
            builder.getModulePassManager().run(module, builder)
        return CompiledObject(llir=str(module), obj=machine.emit_object(module))


@functools.cache
def quick_machine() -> llvm.TargetMachine:
    """A TargetMachine for the host at code-generation level 0, for `compile_module`'s quick
    builds."""
    target = host_target()
    return _create_machine(target.triple, target.cpu, target.features, level=0)


def assembly(llir: str) -> str:
    """The host assembly text of ``llir`` (IR that `compile_module` optimized), generated
    without optimizing it again. Raises `LLVMError` for text LLVM rejects."""
    target = host_target()
    with _LOCK:
        return target.machine.emit_assembly(_parse(llir, "assembly"))


def _parse(llvm_ir: str, name: str) -> llvm.ModuleRef:
    """``llvm_ir`` parsed and verified; `LLVMError` naming ``name`` if LLVM rejects it. Call it
    holding `_LOCK`."""
    try:
        module = llvm.parse_assembly(llvm_ir)
        module.verify()
    except RuntimeError as error:
        message = str(error).strip().replace("<string>:", f"{name}:")
        raise LLVMError(f"invalid LLVM IR for {name}: {message}") from None
    return module


def register_symbol(name: str, address: int) -> None:
    """Makes ``name`` resolve to ``address`` in objects loaded afterwards (runtime callbacks)."""
    llvm.add_symbol(name, address)


class JITLibrary:
    """An object file loaded into its own MCJIT engine. The object is linked on the first
    `address` lookup, so symbols registered after construction (the runtime's callbacks) resolve.
    The engine, and the code in it, lives as long as this object: keep it while kernels run."""

    def __init__(self, obj: bytes) -> None:
        self.imports = object_symbols(obj).imported
        """The symbols the object uses and does not define (libm's, the runtime's callbacks)."""
        self._obj = obj
        self._engine: llvm.ExecutionEngine | None = None

    def address(self, symbol: str) -> int:
        """The address of a function or global the object defines; raises KeyError if none."""
        engine = self._engine or self._load()
        address = engine.get_function_address(symbol)
        if not address:
            raise KeyError(f"the object defines no symbol {symbol!r}")
        return address

    def _load(self) -> llvm.ExecutionEngine:
        target = host_target()
        with _LOCK:
            if self._engine is not None:
                return self._engine
            # The engine owns its TargetMachine, so it cannot share the host's. Creating it
            # also makes the process's own symbols (libc, libm) visible to address_of_symbol.
            machine = _create_machine(target.triple, target.cpu, target.features)
            engine = llvm.create_mcjit_compiler(llvm.parse_assembly(""), machine)
            missing = [name for name in self.imports if llvm.address_of_symbol(name) is None]
            if missing:
                raise LLVMError(f"the object uses symbols nothing defines: {', '.join(missing)}")
            engine.add_object_file(llvm.ObjectFileRef.from_data(self._obj))
            engine.finalize_object()
            self._engine = engine
            return engine


_ELF_HEADER = struct.Struct("<16sHHIQQQIHHHHHH")
_SECTION_HEADER = struct.Struct("<IIQQQQIIQQ")
_SYMBOL = struct.Struct("<IBBHQQ")
_SHT_SYMTAB = 2
_SHT_NOBITS = 8
_STB_GLOBAL = 1


class ObjectSymbols:
    """The global symbols of an object file: those it defines and those it imports."""

    __slots__ = ("defined", "imported")

    def __init__(self, defined: frozenset[str], imported: tuple[str, ...]) -> None:
        self.defined = defined
        self.imported = imported


def object_symbols(obj: bytes) -> ObjectSymbols:
    """The global symbols of a 64-bit little-endian ELF relocatable object. Checks the parts it
    reads and that every section lies inside the bytes, since LLVM crashes on bytes that are not
    an object file; raises `LLVMError` for those."""
    try:
        (ident, e_type, _machine, _version, _entry, _phoff, shoff, _flags, _ehsize, _phentsize,
         _phnum, shentsize, shnum, _shstrndx) = _ELF_HEADER.unpack_from(obj)
        if ident[:6] != b"\x7fELF\x02\x01" or e_type != 1 or shentsize != _SECTION_HEADER.size:
            raise ValueError("not a 64-bit little-endian ELF relocatable object")
        sections = [_SECTION_HEADER.unpack_from(obj, shoff + i * shentsize) for i in range(shnum)]
        for _, sh_type, _, _, offset, size, *_ in sections:
            if sh_type != _SHT_NOBITS and offset + size > len(obj):
                raise ValueError(f"a section lies past the end of the file ({len(obj)} bytes)")
        defined, imported = set(), []
        for _, sh_type, _, _, offset, size, link, *_ in sections:
            if sh_type != _SHT_SYMTAB:
                continue
            strings_offset, strings_size = sections[link][4:6]
            strings = obj[strings_offset:strings_offset + strings_size]
            for start in range(offset, offset + size, _SYMBOL.size):
                st_name, st_info, _, st_shndx, _, _ = _SYMBOL.unpack_from(obj, start)
                if not st_name or st_info >> 4 != _STB_GLOBAL:
                    continue
                name = strings[st_name:strings.index(b"\0", st_name)].decode()
                if st_shndx == 0:
                    imported.append(name)
                else:
                    defined.add(name)
        return ObjectSymbols(frozenset(defined), tuple(imported))
    except struct.error:
        raise LLVMError(f"invalid object file: truncated ({len(obj)} bytes)") from None
    except (ValueError, IndexError, UnicodeDecodeError) as error:
        raise LLVMError(f"invalid object file: {error}") from None
