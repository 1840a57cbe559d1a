"""docs/adding-an-op.md, followed in a temporary copy of the project: its code blocks are the
files it writes (a block whose first line names a path) or appends to (`appended to <path>`);
then tools/gen, tilecraft-opt, and its kernels in the interpreter and on the CPU backend (the
kernel of `tt.hypot`, whose `.td` declares its LLVM lowering, is also compiled for sm_90). The
files touched by hand outside `defs/` are counted: one, the hook."""

from __future__ import annotations

import filecmp
import re
from pathlib import Path

from ..backends.cuda.gpu_compile import have_ptxas
from ..project_copy import FOLDERS, ROOT, ProjectCopy, copy_project

DOC = ROOT / "docs" / "adding-an-op.md"
_BLOCK = re.compile(r"^```\w+\n(?:#|//) (appended to )?(\S+)\n(.*?)^```$", re.M | re.S)
# What tools/gen writes: not touched by hand.
_GENERATED = ("generated/", "docs/dialects/")


def tutorial_files() -> list[tuple[str, str, bool]]:
    """(path, text, whether it is appended) of each code block of the tutorial that names a
    file, in order."""
    return [(path, text, bool(appended))
            for appended, path, text in _BLOCK.findall(DOC.read_text(encoding="utf-8"))]


def touched_by_hand(project: ProjectCopy) -> list[str]:
    """The project's files that differ from the checkout's, tools/gen's outputs left out."""
    changed = []
    for folder in FOLDERS:
        for path in sorted((project.root / folder).rglob("*")):
            relative = path.relative_to(project.root).as_posix()
            if (path.is_dir() or path.is_symlink() or "__pycache__" in relative
                    or relative.startswith(_GENERATED)):
                continue
            original = ROOT / relative
            if not original.exists() or not filecmp.cmp(path, original, shallow=False):
                changed.append(relative)
    return changed


def test_the_tutorial_adds_tt_fancy_add(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "project")
    work = tmp_path / "work"  # the user's own files, outside the project
    work.mkdir()
    files = tutorial_files()
    assert [path for path, _, _ in files] == [
        "defs/fancy.td", "tilecraft/dialects/tt.py", "fancy.mlir", "fancy_kernel.py",
        "defs/hypot.td", "hypot_kernel.py"]
    for path, text, appended in files:
        target = project.root / path if "/" in path else work / path
        if appended:
            target.write_text(target.read_text(encoding="utf-8") + "\n\n" + text,
                              encoding="utf-8")
        else:
            target.write_text(text, encoding="utf-8")
        if path == "defs/fancy.td":
            # Before the hook exists, tools/gen names the op, the .td line and the function.
            missing = project.run("tools/gen", check=False)
            assert missing.returncode == 1
            assert ("defs/fancy.td:9:7: error: 'tt.fancy_add' declares hasFolder but "
                    "tilecraft/dialects/tt.py implements no FancyAddOp.fold") in missing.stderr
    project.run("tools/gen")
    project.run("tools/gen", "--check")

    printed = project.run("tools/opt", str(work / "fancy.mlir")).stdout
    assert "%0 = tt.fancy_add %arg0, %arg1 : tensor<4xf32>" in printed
    canonical = project.run("tools/opt", str(work / "fancy.mlir"), "-canonicalize").stdout
    assert "tt.fancy_add" not in canonical
    assert "%0 = arith.addf %arg1, %arg1 : tensor<4xf32>" in canonical
    assert "%1 = arith.addf %arg0, %0 : tensor<4xf32>" in canonical
    assert "arith.constant 7.000000e+00 : f32" in canonical
    folded = project.run("-c", _FOLD_CHECK, stdin=(work / "fancy.mlir").read_text()).stdout
    assert folded.strip() == "7.0"

    for backend in ("interpret", "cpu"):
        for kernel in ("fancy_kernel.py", "hypot_kernel.py"):
            run = project.run(str(work / kernel), TILECRAFT_BACKEND=backend,
                              TILECRAFT_CACHE_DIR=str(tmp_path / "cache"))
            assert run.stdout.startswith(f"{backend}"), run.stdout
            assert "max relative error" in run.stdout
    cpu_ir = project.run("-c", _LLIR.format(kernels=work, target="None"),
                         TILECRAFT_BACKEND="cpu").stdout
    assert "call float @hypotf(" in cpu_ir and "call double @hypot(" in cpu_ir
    if have_ptxas():
        gpu_ir = project.run("-c", _LLIR.format(kernels=work, target='tc.GPUTarget("cuda", 90)'))
        assert "call float @\"__nv_hypotf\"(" in gpu_ir.stdout

    assert sorted(touched_by_hand(project)) == ["defs/fancy.td", "defs/hypot.td",
                                                "tilecraft/dialects/tt.py"]


# The LLVM IR of hypot_kernel for f32 and f64 on a target (None: the CPU).
_LLIR = """
import sys
sys.path.insert(0, "{kernels}")
import tilecraft as tc
from hypot_kernel import hypot_kernel
for ty in ("*fp32", "*fp64"):
    source = tc.ASTSource(hypot_kernel, {{"x_ptr": ty, "y_ptr": ty, "out_ptr": ty, "n": "i32"}},
                          {{"BLOCK": 256}})
    print(tc.compile(source, target={target}).asm["llir"])
"""


# The hook itself: FancyAddOp.fold of @g's two constants.
_FOLD_CHECK = """
import sys
from tilecraft.generated.tt import FancyAddOp
from tilecraft.ir import parse_module
module = parse_module(sys.stdin.read())
op = next(op for op in module.walk() if isinstance(op, FancyAddOp)
          and op.x.defining_op is not None)
constants = [operand.defining_op.properties["value"] for operand in (op.x, op.y)]
print(op.fold(constants)[0].value)
"""
