"""LLVM IR -> PTX -> cubin without a GPU: hand-written kernels, libdevice, the check that keeps
LLVM from aborting on functions NVPTX cannot compile, and ptxas's errors.

Whatever could make LLVM abort runs in a child process, so a regression fails one test with
LLVM's message instead of ending the session.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tilecraft.backends.cuda import toolchain
from tilecraft.backends.cuda.toolchain import (PTXASError, SELECTABLE_INTRINSICS, ToolchainError,
                                               llvm_to_ptx, ptx_to_cubin)


def _available(finder) -> bool:
    try:
        finder()
    except ToolchainError:
        return False
    return True


needs_ptxas = pytest.mark.skipif(not _available(toolchain.find_ptxas), reason="no ptxas")
needs_libdevice = pytest.mark.skipif(not _available(toolchain.find_libdevice),
                                     reason="no libdevice.10.bc")

# y[i:i+4] = f(x[i:i+4]) for the 4 floats of each thread, 128 threads per block; BODY computes
# %out (<4 x float>) from %in.
_KERNEL = textwrap.dedent("""
    declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
    declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
    DECLARATIONS

    define ptx_kernel void @k(ptr addrspace(1) %x, ptr addrspace(1) %y, i32 %n) "nvvm.maxntid"="128" {
    entry:
      %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
      %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
      %base = shl i32 %bid, 9
      %lane = shl i32 %tid, 2
      %i = add i32 %base, %lane
      %inside = icmp slt i32 %i, %n
      br i1 %inside, label %body, label %done
    body:
      %offset = sext i32 %i to i64
      %px = getelementptr float, ptr addrspace(1) %x, i64 %offset
      %in = load <4 x float>, ptr addrspace(1) %px, align 16
    BODY
      %py = getelementptr float, ptr addrspace(1) %y, i64 %offset
      store <4 x float> %out, ptr addrspace(1) %py, align 16
      br label %done
    done:
      ret void
    }
""")


def _kernel(body: str = "  %out = fadd <4 x float> %in, %in", declarations: str = "") -> str:
    return _KERNEL.replace("DECLARATIONS", declarations).replace("BODY", body)


def _first_lane(function: str) -> tuple[str, str]:
    """A body applying the f32 function ``function`` to the first lane, and its declaration."""
    body = (f"  %e = extractelement <4 x float> %in, i32 0\n"
            f"  %r = call float @{function}(float %e)\n"
            f"  %out = insertelement <4 x float> %in, float %r, i32 0")
    return body, f"declare float @{function}(float)"


def test_gpu_names() -> None:
    assert toolchain.gpu_name(80) == "sm_80"
    assert toolchain.gpu_name(90) == "sm_90a"
    with pytest.raises(ToolchainError, match="compute capability 91"):
        toolchain.gpu_name(91)


@pytest.mark.parametrize("capability", [80, 90])
def test_vector_kernel_to_ptx(capability: int) -> None:
    ptx = llvm_to_ptx(_kernel(), capability)
    assert f".target {toolchain.gpu_name(capability)}" in ptx
    assert re.search(r"\.visible \.entry k\(", ptx)
    assert ".maxntid 128" in ptx
    # LLVM 22 prints untyped vector loads (``.b32``); older LLVMs printed ``.f32``.
    assert re.search(r"ld\.global\.v4\.[bf]32", ptx)
    assert re.search(r"st\.global\.v4\.[bf]32", ptx)


@needs_ptxas
@pytest.mark.parametrize("capability", [80, 90])
def test_ptx_to_cubin(capability: int) -> None:
    result = ptx_to_cubin(llvm_to_ptx(_kernel(), capability), capability, name="k")
    assert result.cubin[:4] == b"\x7fELF"
    assert 0 < result.registers <= 255
    assert result.spills == 0
    assert result.shared == 0
    assert f"Compiling entry function 'k' for '{toolchain.gpu_name(capability)}'" in result.log


# One thread stores its index through 4 KiB of static shared memory: entry ``s``.
SHARED_PTX = textwrap.dedent("""
    .version 8.0
    .target sm_90a
    .address_size 64
    .visible .entry s(.param .u64 p)
    {
      .shared .align 4 .b8 buffer[4096];
      .reg .b32 %r<3>;
      .reg .b64 %rd<3>;
      mov.u32 %r1, %tid.x;
      mov.u32 %r2, buffer;
      st.shared.u32 [%r2], %r1;
      bar.sync 0;
      ld.shared.u32 %r1, [%r2+4];
      ld.param.u64 %rd1, [p];
      cvta.to.global.u64 %rd2, %rd1;
      st.global.u32 [%rd2], %r1;
      ret;
    }
""")


@needs_ptxas
def test_static_shared_memory_is_reported() -> None:
    assert ptx_to_cubin(SHARED_PTX, 90, name="s").shared == 4096


@needs_libdevice
def test_libdevice_is_linked_and_trimmed() -> None:
    body, declaration = _first_lane("__nv_expf")
    ptx = llvm_to_ptx(_kernel(body, declaration), 90)
    assert "__nv_" not in ptx and "__nvvm_reflect" not in ptx
    assert ".func" not in ptx  # inlined, and the rest of libdevice dropped
    assert "ex2.approx" in ptx
    assert len(ptx) < 4000
    # The subset is cached: a second kernel with the same function links it again.
    assert llvm_to_ptx(_kernel(body, declaration), 90) == ptx


@needs_libdevice
def test_libdevice_double_precision_and_several_functions() -> None:
    body = textwrap.dedent("""\
          %e = extractelement <4 x float> %in, i32 0
          %d = fpext float %e to double
          %s = call double @__nv_sin(double %d)
          %l = call double @__nv_log1p(double %s)
          %t = fptrunc double %l to float
          %out = insertelement <4 x float> %in, float %t, i32 0""")
    declarations = "declare double @__nv_sin(double)\ndeclare double @__nv_log1p(double)"
    ptx = llvm_to_ptx(_kernel(body, declarations), 80)
    assert "__nv_" not in ptx and ".entry k" in ptx


@needs_libdevice
def test_libdevice_errors() -> None:
    body, declaration = _first_lane("__nv_no_such_function")
    with pytest.raises(ToolchainError, match="defines no function __nv_no_such_function"):
        llvm_to_ptx(_kernel(body, declaration), 90)
    body, declaration = _first_lane("__nv_expf")
    with pytest.raises(ToolchainError, match="libdevice=False"):
        llvm_to_ptx(_kernel(body, declaration), 90, libdevice=False)


def test_libdevice_not_found(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("TILECRAFT_LIBDEVICE", str(tmp_path / "missing.bc"))
    with pytest.raises(ToolchainError, match="TILECRAFT_LIBDEVICE"):
        toolchain.find_libdevice()


def test_ptxas_not_found(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("TILECRAFT_PTXAS", str(tmp_path / "ptxas"))
    with pytest.raises(ToolchainError, match="TILECRAFT_PTXAS"):
        toolchain.find_ptxas()


def test_invalid_ir_and_undefined_functions() -> None:
    with pytest.raises(ToolchainError, match="invalid LLVM IR"):
        llvm_to_ptx("define void @f() { ret i32 0 }", 90)
    body, declaration = _first_lane("my_helper")
    with pytest.raises(ToolchainError, match="calls my_helper, which it does not define"):
        llvm_to_ptx(_kernel(body, declaration), 90)


def _run_child(code: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], input=stdin, capture_output=True,
                          text=True, check=False, timeout=300)


# Reads one JSON case per line ({"name", "ir", "capability"}), compiles it with llvm_to_ptx and
# prints "START name" before and "OK name" or "ERROR name: message" after.
_CASE_RUNNER = textwrap.dedent("""
    import json, sys
    from tilecraft.backends.cuda.toolchain import ToolchainError, llvm_to_ptx
    for line in sys.stdin:
        case = json.loads(line)
        print("START", case["name"], flush=True)
        try:
            llvm_to_ptx(case["ir"], case["capability"])
        except ToolchainError as error:
            print("ERROR", case["name"] + ":", str(error).replace("\\n", " "), flush=True)
        else:
            print("OK", case["name"], flush=True)
""")


def _run_cases(cases: list[dict[str, object]]) -> dict[str, str]:
    """Each case's outcome ("OK" or the error), compiled in one child process; fails the test
    with LLVM's message if the child dies."""
    child = _run_child(_CASE_RUNNER, "".join(json.dumps(case) + "\n" for case in cases))
    outcomes: dict[str, str] = {}
    started = None
    for line in child.stdout.splitlines():
        word, rest = line.split(" ", 1)
        if word == "START":
            started = rest
        elif word == "OK":
            outcomes[rest] = "OK"
        elif word == "ERROR":
            name, message = rest.split(": ", 1)
            outcomes[name] = message
    if child.returncode != 0:
        pytest.fail(f"the compiler process died compiling {started}:\n{child.stderr[-3000:]}")
    return outcomes


# Intrinsics that make LLVM 22 abort for NVPTX: name -> (return type, arguments).
_REJECTED = {
    "llvm.sin.f32": ("float", "float %e"),
    "llvm.cos.f64": ("double", "double %d"),
    "llvm.exp.f32": ("float", "float %e"),
    "llvm.log.f32": ("float", "float %e"),
    "llvm.pow.f32": ("float", "float %e, float %e"),
    "llvm.exp2.f64": ("double", "double %d"),
    "llvm.tanh.f32": ("float", "float %e"),
    "llvm.powi.f32.i32": ("float", "float %e, i32 3"),
    "llvm.lrint.i64.f32": ("i64", "float %e"),
}


def test_functions_nvptx_cannot_compile_are_rejected_before_llvm() -> None:
    cases = []
    for name, (ret, arguments) in _REJECTED.items():
        parameter_types = ", ".join(argument.split(" ")[0] for argument in arguments.split(", "))
        body = ("  %e = extractelement <4 x float> %in, i32 0\n"
                "  %d = fpext float %e to double\n"
                f"  %r = call {ret} @{name}({arguments})\n"
                "  %out = fadd <4 x float> %in, %in")
        ir = _kernel(body, f"declare {ret} @{name}({parameter_types})")
        cases.append({"name": name, "ir": ir, "capability": 90})
    outcomes = _run_cases(cases)
    for name in _REJECTED:
        assert f"calls {name}, which LLVM's NVPTX back end cannot compile" in outcomes[name]


# Every family of SELECTABLE_INTRINSICS, with the signature to test it by: (overload suffix
# per element type, return type, argument types) built from the element type T.
_FLOAT_TYPES = {"f16": "half", "bf16": "bfloat", "f32": "float", "f64": "double"}
_INT_TYPES = {"i8": "i8", "i16": "i16", "i32": "i32", "i64": "i64"}
_FLOAT_UNARY = ["fabs", "sqrt", "floor", "ceil", "trunc", "rint", "nearbyint", "round",
                "roundeven", "exp2", "canonicalize"]
_FLOAT_BINARY = ["copysign", "minnum", "maxnum", "minimum", "maximum", "minimumnum",
                 "maximumnum"]
_INT_UNARY = ["ctpop", "bitreverse", "bswap"]
_INT_BINARY = ["smax", "smin", "umax", "umin", "sadd.sat", "uadd.sat", "ssub.sat", "usub.sat",
               "sshl.sat", "ushl.sat"]
_OVERFLOW = ["sadd.with.overflow", "uadd.with.overflow", "ssub.with.overflow",
             "usub.with.overflow", "smul.with.overflow", "umul.with.overflow"]
# Families whose test is one fixed kernel body: (declaration, call).
_SINGLE = {
    "memcpy": ("declare void @llvm.memcpy.p1.p1.i64(ptr addrspace(1), ptr addrspace(1), i64, i1)",
               "call void @llvm.memcpy.p1.p1.i64(ptr addrspace(1) %p, ptr addrspace(1) %q, "
               "i64 %n, i1 false)"),
    "memmove": ("declare void @llvm.memmove.p1.p1.i64(ptr addrspace(1), ptr addrspace(1), i64, "
                "i1)", "call void @llvm.memmove.p1.p1.i64(ptr addrspace(1) %p, "
                       "ptr addrspace(1) %q, i64 %n, i1 false)"),
    "memset": ("declare void @llvm.memset.p1.i64(ptr addrspace(1), i8, i64, i1)",
               "call void @llvm.memset.p1.i64(ptr addrspace(1) %p, i8 7, i64 %n, i1 false)"),
    "lifetime.start": ("declare void @llvm.lifetime.start.p0(ptr)",
                       "call void @llvm.lifetime.start.p0(ptr %slot)"),
    "lifetime.end": ("declare void @llvm.lifetime.end.p0(ptr)",
                     "call void @llvm.lifetime.end.p0(ptr %slot)"),
    "invariant.start": ("declare ptr @llvm.invariant.start.p1(i64, ptr addrspace(1))",
                        "%inv = call ptr @llvm.invariant.start.p1(i64 4, ptr addrspace(1) %p)"),
    "invariant.end": ("declare void @llvm.invariant.end.p1(ptr, i64, ptr addrspace(1))",
                      "call void @llvm.invariant.end.p1(ptr null, i64 4, ptr addrspace(1) %p)"),
    "assume": ("declare void @llvm.assume(i1)", "call void @llvm.assume(i1 %c)"),
    "expect": ("declare i1 @llvm.expect.i1(i1, i1)",
               "%ex = call i1 @llvm.expect.i1(i1 %c, i1 true)"),
    "prefetch": ("declare void @llvm.prefetch.p1(ptr addrspace(1), i32, i32, i32)",
                 "call void @llvm.prefetch.p1(ptr addrspace(1) %p, i32 0, i32 3, i32 1)"),
    "ptrmask": ("declare ptr addrspace(1) @llvm.ptrmask.p1.i64(ptr addrspace(1), i64)",
                "%pm = call ptr addrspace(1) @llvm.ptrmask.p1.i64(ptr addrspace(1) %p, i64 -16)\n"
                "  store i64 %n, ptr addrspace(1) %pm"),
    "trap": ("declare void @llvm.trap()", "call void @llvm.trap()"),
    "debugtrap": ("declare void @llvm.debugtrap()", "call void @llvm.debugtrap()"),
    "readcyclecounter": ("declare i64 @llvm.readcyclecounter()",
                         "%cy = call i64 @llvm.readcyclecounter()\n"
                         "  store i64 %cy, ptr addrspace(1) %p"),
    "sideeffect": ("declare void @llvm.sideeffect()", "call void @llvm.sideeffect()"),
    "donothing": ("declare void @llvm.donothing()", "call void @llvm.donothing()"),
    "dbg.declare": ("declare void @llvm.dbg.declare(metadata, metadata, metadata)",
                    "call void @llvm.dbg.declare(metadata ptr %slot, metadata !0, "
                    "metadata !DIExpression())"),
    "dbg.value": ("declare void @llvm.dbg.value(metadata, metadata, metadata)",
                  "call void @llvm.dbg.value(metadata i64 %n, metadata !0, "
                  "metadata !DIExpression())"),
    "dbg.label": ("declare void @llvm.dbg.label(metadata)",
                  "call void @llvm.dbg.label(metadata !7)"),
}
# Debug information that the dbg.* cases refer to: !0 a variable, !7 a label, in kernel !3.
_DEBUG_INFO = textwrap.dedent("""
    !llvm.dbg.cu = !{!1}
    !llvm.module.flags = !{!8}
    !0 = !DILocalVariable(name: "v", scope: !3, file: !2, line: 1, type: !6)
    !1 = distinct !DICompileUnit(language: DW_LANG_C, file: !2, emissionKind: FullDebug)
    !2 = !DIFile(filename: "k.py", directory: "/")
    !3 = distinct !DISubprogram(name: "k", scope: !2, file: !2, line: 1, type: !4, unit: !1,
                                spFlags: DISPFlagDefinition)
    !4 = !DISubroutineType(types: !5)
    !5 = !{}
    !6 = !DIBasicType(name: "int", size: 64, encoding: DW_ATE_signed)
    !7 = !DILabel(scope: !3, name: "l", file: !2, line: 1)
    !8 = !{i32 2, !"Debug Info Version", i32 3}
    !9 = !DILocation(line: 1, scope: !3)
""")


def _scalar_case(name: str, ret: str, args: list[str]) -> str:
    """A kernel that loads each argument of ``name`` from its own pointer and stores the result
    (the first field of a struct result)."""
    params = ", ".join(f"ptr addrspace(1) %p{index}" for index in range(len(args) + 1))
    lines, values = [], []
    for index, arg in enumerate(args):
        if arg.startswith("const "):
            values.append(arg[len("const "):])
            continue
        lines.append(f"  %a{index} = load {arg}, ptr addrspace(1) %p{index}")
        values.append(f"{arg} %a{index}")
    lines.append(f"  %r = call {ret} @{name}({', '.join(values)})")
    stored, result = ret, "%r"
    if ret.startswith("{"):
        stored = ret[1:].split(",")[0].strip()
        lines.append(f"  %r0 = extractvalue {ret} %r, 0")
        result = "%r0"
    lines.append(f"  store {stored} {result}, ptr addrspace(1) %p{len(args)}")
    declared = ", ".join(arg.split(" ")[1] if arg.startswith("const ") else arg for arg in args)
    return (f"declare {ret} @{name}({declared})\n"
            f"define ptx_kernel void @k({params}) {{\n" + "\n".join(lines) + "\n  ret void\n}\n")


def _single_case(family: str) -> str:
    declaration, call = _SINGLE[family]
    debug = family.startswith("dbg.")
    location = ", !dbg !9" if debug else ""
    return (f"{declaration}\n"
            f"define ptx_kernel void @k(ptr addrspace(1) %p, ptr addrspace(1) %q, i64 %n)"
            f"{' !dbg !3' if debug else ''} {{\n"
            f"  %slot = alloca i64{location}\n"
            f"  store volatile i64 %n, ptr %slot{location}\n"
            f"  %c = icmp sgt i64 %n, 0{location}\n"
            f"  {call.replace(chr(10), location + chr(10))}{location}\n"
            f"  ret void{location}\n}}\n" + (_DEBUG_INFO if debug else ""))


def _typed_cases(family: str) -> list[tuple[str, str]]:
    """(intrinsic name, kernel) for each element type of ``family`` and one vector type."""
    allowed = SELECTABLE_INTRINSICS[family]
    floats = {suffix: ty for suffix, ty in _FLOAT_TYPES.items()
              if allowed is None or suffix in allowed}
    cases = []

    def add(name: str, ret: str, args: list[str]) -> None:
        cases.append((name, _scalar_case(name, ret, args)))

    if family in _FLOAT_UNARY + _FLOAT_BINARY + ["fma", "fmuladd"]:
        arity = 1 if family in _FLOAT_UNARY else 2 if family in _FLOAT_BINARY else 3
        types = {**floats, "v4f32": "<4 x float>"}
        if allowed is None or "f16" in allowed:
            types["v2f16"] = "<2 x half>"
        for suffix, ty in types.items():
            add(f"llvm.{family}.{suffix}", ty, [ty] * arity)
    elif family in ("ldexp", "frexp", "is.fpclass", "fptosi.sat", "fptoui.sat"):
        for suffix, ty in floats.items():
            if family == "ldexp":
                add(f"llvm.ldexp.{suffix}.i32", ty, [ty, "i32"])
            elif family == "frexp":
                add(f"llvm.frexp.{suffix}.i32", f"{{{ty}, i32}}", [ty])
            elif family == "is.fpclass":
                add(f"llvm.is.fpclass.{suffix}", "i1", [ty, "const i32 3"])
            else:
                add(f"llvm.{family}.i32.{suffix}", "i32", [ty])
    elif family in _INT_UNARY + _INT_BINARY + ["ctlz", "cttz", "abs", "fshl", "fshr"]:
        types = {**_INT_TYPES, "v4i32": "<4 x i32>"}
        for suffix, ty in types.items():
            if family == "bswap" and suffix == "i8":
                continue  # the verifier requires whole pairs of bytes
            if family in ("ctlz", "cttz", "abs"):
                add(f"llvm.{family}.{suffix}", ty, [ty, "const i1 false"])
            else:
                arity = 1 if family in _INT_UNARY else 3 if family in ("fshl", "fshr") else 2
                add(f"llvm.{family}.{suffix}", ty, [ty] * arity)
    elif family in _OVERFLOW:
        for suffix, ty in _INT_TYPES.items():
            add(f"llvm.{family}.{suffix}", f"{{{ty}, i1}}", [ty, ty])
    elif family in ("scmp", "ucmp"):
        for suffix, ty in _INT_TYPES.items():
            add(f"llvm.{family}.i8.{suffix}", "i8", [ty, ty])
    elif family.startswith("vector.reduce."):
        op = family[len("vector.reduce."):]
        if op in ("fadd", "fmul"):
            add(f"llvm.{family}.v4f32", "float", ["float", "<4 x float>"])
        elif op.startswith("f"):
            add(f"llvm.{family}.v4f32", "float", ["<4 x float>"])
            add(f"llvm.{family}.v4f16", "half", ["<4 x half>"])
        else:
            add(f"llvm.{family}.v4i32", "i32", ["<4 x i32>"])
            add(f"llvm.{family}.v4i64", "i64", ["<4 x i64>"])
    return cases


def test_selectable_intrinsics_compile_in_a_child_process() -> None:
    """Every family in SELECTABLE_INTRINSICS compiles to PTX for sm_80 and sm_90a, for each type
    it allows: LLVM would abort the child otherwise."""
    cases: list[dict[str, object]] = []
    untested = []
    for family in SELECTABLE_INTRINSICS:
        typed = [(f"llvm.{family}", _single_case(family))] if family in _SINGLE else \
            _typed_cases(family)
        if not typed:
            untested.append(family)
        for name, ir in typed:
            for capability in (80, 90):
                cases.append({"name": f"{name}@{capability}", "ir": ir,
                              "capability": capability})
    assert not untested, f"families without a test case: {untested}"
    outcomes = _run_cases(cases)
    failed = {name: outcome for name, outcome in outcomes.items() if outcome != "OK"}
    assert not failed
    assert len(outcomes) == len(cases)


def test_every_known_capability_compiles_and_assembles() -> None:
    """The PTX version chosen for each GPU is one LLVM accepts (it aborts otherwise) and, where
    ptxas is found, one ptxas assembles."""
    check_ptxas = _available(toolchain.find_ptxas)
    code = textwrap.dedent(f"""
        from tilecraft.backends.cuda import toolchain
        ir = ("define ptx_kernel void @k(ptr addrspace(1) %p) {{\\n"
              "  store float 1.0, ptr addrspace(1) %p\\n  ret void\\n}}")
        for capability in toolchain._PTX_VERSION:
            ptx = toolchain.llvm_to_ptx(ir, capability)
            if {check_ptxas}:
                toolchain.ptx_to_cubin(ptx, capability, name="k")
            print(capability, flush=True)
    """)
    child = _run_child(code)
    assert child.returncode == 0, child.stderr[-3000:]
    assert child.stdout.split() == [str(capability) for capability in toolchain._PTX_VERSION]


@needs_ptxas
def test_ptxas_failure_names_the_command() -> None:
    ptx = llvm_to_ptx(_kernel(), 90)
    broken = re.sub(r"ld\.global\.v4\.", "ld.global.v9.", ptx, count=1)
    with pytest.raises(PTXASError) as caught:
        ptx_to_cubin(broken, 90, name="k")
    message = str(caught.value)
    assert "Unknown modifier '.v9'" in message
    command = message.split("reproduce with: ", 1)[1].strip()
    argv = shlex.split(command)
    assert argv[1:5] == ["--gpu-name", "sm_90a", "-O3", "-v"]
    ptx_file = Path(argv[5])
    assert ptx_file.read_text() == broken
    rerun = subprocess.run(argv, capture_output=True, text=True, check=False)
    assert rerun.returncode != 0 and "Unknown modifier '.v9'" in rerun.stdout + rerun.stderr
    ptx_file.unlink()
    ptx_file.parent.rmdir()
