"""tilecraft-compile and tilecraft-link, as Triton's compile.py and link.py: a kernel, a
signature and a grid become a C header and source that embed the cubin and launch it through the
CUDA driver API, and specializations join behind one function that dispatches on the hints.
Mistakes are named without a traceback; gcc compiles the C against cuda.h, and on a GPU a C
program launches it."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tilecraft.runtime import aot_link
from tilecraft.runtime.aot import AOTError, compile_kernel, grid_to_c, main

KERNEL = '''
import tilecraft as tc
import tilecraft.language as tl


@tc.jit
def scale_add_kernel(x_ptr, y_ptr, out_ptr, n, alpha, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, alpha * x + tl.load(y_ptr + offsets, mask=mask), mask=mask)
'''
SIGNATURE = "*fp32:16, *fp32:16, *fp32:16, i32, fp32, 256"
GRID = "cdiv(n, 256), 1, 1"


def _cuda_include() -> Path | None:
    from tilecraft.backends.cuda import toolchain

    homes = [os.environ.get(name) for name in ("CUDA_HOME", "CUDA_PATH")]
    try:
        homes.append(str(toolchain.find_ptxas().resolve().parents[1]))
    except toolchain.ToolchainError:
        return None
    homes.append("/usr/local/cuda")
    return next((Path(home) / "include" for home in homes
                 if home and (Path(home) / "include" / "cuda.h").is_file()), None)


def _have_ptxas() -> bool:
    from tilecraft.backends.cuda import toolchain

    try:
        toolchain.find_ptxas()
    except toolchain.ToolchainError:
        return False
    return True


def _have_gpu() -> bool:
    from tilecraft.backends.cuda import driver

    return driver.is_available()


needs_ptxas = pytest.mark.skipif(not _have_ptxas(), reason="ptxas not found")


@pytest.fixture
def kernel_file(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("TILECRAFT_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "scale_add.py"
    path.write_text(KERNEL)
    return path


@pytest.mark.parametrize("signature, message", [
    ("*fp32, *fp32, i32, fp32, 256",
     "the signature has 5 entries; scale_add_kernel takes 6 parameters (x_ptr, y_ptr, out_ptr, "
     "n, alpha, BLOCK)"),
    ("*fp32, *fp32, *fp32, i3, fp32, 256",
     "signature entry 4 ('i3', parameter 'n'): not a type such as *fp32, i32 or fp32"),
    ("*fp32, *fp32, *fp32, i32, fp32, i32",
     "signature entry 6 ('i32', parameter 'BLOCK'): BLOCK is a constexpr parameter; give its "
     "value"),
    ("*fp32:8, *fp32, *fp32, i32, fp32, 256",
     "signature entry 1 ('*fp32:8', parameter 'x_ptr'): the hint after ':' is 16"),
    ("*fp32, *fp32, *fp32, i32, fp32:1, 256",
     "signature entry 5 ('fp32:1', parameter 'alpha'): only integers (i32, u64, ...) can be "
     "specialized to 1"),
])
def test_a_signature_that_does_not_fit_is_named_by_its_entry(kernel_file, tmp_path, capsys,
                                                             signature, message):
    code = main([str(kernel_file), "-n", "scale_add_kernel", "-s", signature, "-g", GRID,
                 "-o", str(tmp_path / "out"), "-t", "cuda:90"])
    error = capsys.readouterr().err
    assert code == 2
    assert error.startswith("tilecraft-compile: error: ") and message in error, error
    assert "Traceback" not in error
    assert not (tmp_path / "out").exists()


def test_a_missing_kernel_is_named_with_those_the_file_has(kernel_file, tmp_path, capsys):
    code = main([str(kernel_file), "-n", "add_kernel", "-s", SIGNATURE, "-g", GRID,
                 "-o", str(tmp_path), "-t", "cuda:90"])
    assert code == 2
    assert "has no @tilecraft.jit kernel named 'add_kernel' (it has: scale_add_kernel)" in \
        capsys.readouterr().err


def test_grids_are_c_integer_expressions_over_integer_parameters():
    assert grid_to_c("cdiv(n, 256), m // 2 + 1, 4", ["n", "m"], {"BLOCK": 8}) == [
        "(((int64_t)n + 256LL - 1) / 256LL)", "(((int64_t)m / 2LL) + 1LL)", "4LL"]
    assert grid_to_c("n / BLOCK, 1, 1", ["n"], {"BLOCK": 8})[0] == "((int64_t)n / 8LL)"
    with pytest.raises(AOTError, match="grid x 'cdiv\\(size, 256\\)': 'size' is not an integer "
                                       "parameter or constant"):
        grid_to_c("cdiv(size, 256), 1, 1", ["n"], {})
    with pytest.raises(AOTError, match="has 2 dimensions; give three"):
        grid_to_c("n, 1", ["n"], {})
    with pytest.raises(AOTError, match="grid y 'n \\*\\* 2': only integers"):
        grid_to_c("1, n ** 2, 1", ["n"], {})
    with pytest.raises(AOTError, match="'alpha' is not an integer parameter"):
        grid_to_c("alpha, 1, 1", ["n"], {"alpha": 0.5})


@needs_ptxas
def test_writes_a_header_and_a_source_that_gcc_compiles(kernel_file, tmp_path):
    generated = compile_kernel(kernel_file, "scale_add_kernel", SIGNATURE, GRID, tmp_path / "out",
                               "scale_add", num_warps=2, target="cuda:90")
    assert generated.function.startswith("scale_add_") and len(generated.function) == 18
    assert generated.header.name == f"scale_add.{generated.function[-8:]}.h"
    assert generated.source.name == f"scale_add.{generated.function[-8:]}.c"
    header = generated.header.read_text()
    assert (f"CUresult {generated.function}(CUstream stream, CUdeviceptr x_ptr, "
            "CUdeviceptr y_ptr, CUdeviceptr out_ptr, int32_t n, float alpha);") in header
    assert f"CUresult load_{generated.function}(void);" in header
    source = generated.source.read_text()
    assert "(((int64_t)n + 256LL - 1) / 256LL)" in source
    assert "64, 1, 1, 0, stream, args, NULL" in source  # 2 warps, no shared memory
    include = _cuda_include()
    if include is None or shutil.which("gcc") is None:
        pytest.skip("cuda.h or gcc not found")
    subprocess.run(["gcc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-c", f"-I{include}",
                    str(generated.source), "-o", str(tmp_path / "scale_add.o")], check=True)
    again = compile_kernel(kernel_file, "scale_add_kernel", SIGNATURE, GRID, tmp_path / "out",
                           "scale_add", num_warps=2, target="cuda:90")
    assert again == generated and again.source.read_text() == source


PROGRAM = r'''
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "HEADER"

#define CHECK(call) do { CUresult s = (call); if (s != CUDA_SUCCESS) { \
    fprintf(stderr, "%s failed: %d\n", #call, (int)s); return 1; } } while (0)

int main(int argc, char **argv) {
    const int n = argc > 1 ? atoi(argv[1]) : 100003;
    const float alpha = 1.5f;
    float *x = malloc(n * sizeof(float)), *y = malloc(n * sizeof(float));
    float *out = malloc(n * sizeof(float));
    srand(12345);
    for (int i = 0; i < n; i++) {
        x[i] = (float)rand() / RAND_MAX - 0.5f;
        y[i] = (float)rand() / RAND_MAX - 0.5f;
        out[i] = NAN;
    }
    CUdevice device;
    CUcontext context;
    CUdeviceptr dx, dy, dout;
    CHECK(cuInit(0));
    CHECK(cuDeviceGet(&device, 0));
    CHECK(cuDevicePrimaryCtxRetain(&context, device));
    CHECK(cuCtxSetCurrent(context));
    CHECK(cuMemAlloc(&dx, n * sizeof(float)));
    CHECK(cuMemAlloc(&dy, n * sizeof(float)));
    CHECK(cuMemAlloc(&dout, n * sizeof(float)));
    CHECK(cuMemcpyHtoD(dx, x, n * sizeof(float)));
    CHECK(cuMemcpyHtoD(dy, y, n * sizeof(float)));
    CHECK(cuMemcpyHtoD(dout, out, n * sizeof(float)));
    CHECK(FUNCTION(0, dx, dy, dout, n, alpha));
    CHECK(cuCtxSynchronize());
    CHECK(cuMemcpyDtoH(out, dout, n * sizeof(float)));
    double worst = 0;
    for (int i = 0; i < n; i++) {
        double expected = (double)alpha * x[i] + y[i];
        double error = fabs(out[i] - expected) / (fabs((double)alpha * x[i]) + fabs(y[i]));
        if (!(error <= worst)) worst = error;
    }
    CHECK(unload_FUNCTION());
    printf("max relative error %g\n", worst);
    return worst < 1e-6 ? 0 : 2;
}
'''


SPECIALIZATIONS = ["*fp32:16, *fp32:16, *fp32:16, i32:16, fp32, 256",
                   "*fp32, *fp32, *fp32, i32, fp32, 256",
                   "*fp32, *fp32, *fp32, i32:1, fp32, 256"]


def _link_all(kernel_file: Path, out: Path) -> tuple[list, Path, Path]:
    generated = [compile_kernel(kernel_file, "scale_add_kernel", signature, GRID, out,
                                "scale_add", target="cuda:90") for signature in SPECIALIZATIONS]
    header, source = aot_link.link([g.header for g in generated], out / "linked" / "kernels")
    return generated, header, source


@needs_ptxas
def test_link_dispatches_to_the_specialization_with_the_most_hints_met(kernel_file, tmp_path):
    (aligned, plain, one), header, source = _link_all(kernel_file, tmp_path / "out")
    assert ("CUresult scale_add(CUstream stream, CUdeviceptr x_ptr, CUdeviceptr y_ptr, "
            "CUdeviceptr out_ptr, int32_t n, float alpha);") in header.read_text()
    assert f'#include "../{aligned.header.name}"' in header.read_text()
    text = source.read_text()
    assert (f"    if ((x_ptr % 16 == 0) && (y_ptr % 16 == 0) && (out_ptr % 16 == 0) && "
            f"(n % 16 == 0)) return {aligned.function}(stream, x_ptr, y_ptr, out_ptr, n, "
            "alpha);\n"
            f"    if ((n == 1)) return {one.function}(stream, x_ptr, y_ptr, out_ptr, alpha);\n"
            f"    return {plain.function}(stream, x_ptr, y_ptr, out_ptr, n, alpha);\n}}") in text
    assert f"status = load_{one.function}();" in text
    include = _cuda_include()
    if include is None or shutil.which("gcc") is None:
        pytest.skip("cuda.h or gcc not found")
    for c_file in [source, aligned.source, plain.source, one.source]:
        subprocess.run(["gcc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-c", f"-I{include}",
                        str(c_file), "-o", str(c_file.with_suffix(".o"))], check=True)


@needs_ptxas
def test_link_names_what_it_cannot_join(kernel_file, tmp_path, capsys):
    out = tmp_path / "out"
    first = compile_kernel(kernel_file, "scale_add_kernel", SIGNATURE, GRID, out, "scale_add",
                           target="cuda:90")
    fixed = compile_kernel(kernel_file, "scale_add_kernel",
                           "*fp32, *fp32, *fp32, i32, 2.0, 256", GRID, out, "scale_add",
                           target="cuda:90")
    with pytest.raises(AOTError, match="the specializations of scale_add take different "
                                       "parameters: .*float alpha.*"):
        aot_link.link([first.header, fixed.header], out / "kernels")
    stranger = tmp_path / "other.h"
    stranger.write_text("#pragma once\n")
    assert aot_link.main([str(first.header), str(stranger), "-o", str(out / "k")]) == 2
    error = capsys.readouterr().err
    assert error == f"tilecraft-link: error: {stranger}: not a header written by " \
        "tilecraft-compile\n"


def _build(program_text: str, sources: list[Path], tmp_path: Path) -> Path:
    include = _cuda_include()
    assert include is not None and shutil.which("gcc") is not None
    program = tmp_path / "main.c"
    program.write_text(program_text)
    libraries = [f"-L{folder}" for folder in (include.parent / "lib64",
                                               include.parent / "lib64" / "stubs")]
    binary = tmp_path / "main"
    subprocess.run(["gcc", "-std=c11", "-O1", str(program), *map(str, sources),
                    f"-I{include}", *libraries, "-lcuda", "-lm", "-o", str(binary)], check=True)
    return binary


def _check_run(binary: Path, n: int) -> None:
    run = subprocess.run([str(binary), str(n)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stdout + run.stderr
    assert float(run.stdout.split()[-1]) < 1e-6


@pytest.mark.skipif(not _have_gpu(), reason="no CUDA device")
def test_a_c_program_launches_the_kernel_on_the_gpu(kernel_file, tmp_path):
    generated = compile_kernel(kernel_file, "scale_add_kernel", SIGNATURE, GRID,
                               tmp_path / "out", "scale_add")
    binary = _build(PROGRAM.replace("HEADER", str(generated.header))
                    .replace("FUNCTION", generated.function), [generated.source], tmp_path)
    for n in (100003, 37):
        _check_run(binary, n)


@pytest.mark.skipif(not _have_gpu(), reason="no CUDA device")
def test_a_c_program_launches_each_linked_specialization(kernel_file, tmp_path):
    generated, header, source = _link_all(kernel_file, tmp_path / "out")
    binary = _build(PROGRAM.replace("HEADER", str(header)).replace("FUNCTION", "scale_add"),
                    [source, *(g.source for g in generated)], tmp_path)
    for n in (100000, 100003, 1):  # aligned, plain, n == 1
        _check_run(binary, n)
