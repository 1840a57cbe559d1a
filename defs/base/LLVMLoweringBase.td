//===- LLVMLoweringBase.td - how the backends lower element-wise ops -----===//
//
// An element-wise op says how the CPU and CUDA backends turn it into LLVM IR in its
// `llvmLowering`: a list of rules, each applied to the values of one element (the registers
// of the operands; f16 and bf16 are computed in f32 registers and the result is rounded back).
// A backend takes the first rule that names it (or no backend) and whose `types` hold the LLVM
// type of the first operand's register ("f32", "f64", "i1", "i8", "i16", "i32", "i64"; empty:
// any). `tools/gen` writes the rules into `tilecraft.generated.lowering`, which both backends
// look up:
//
//   let llvmLowering = [Intrinsic<"llvm.sin", "cpu">, Libdevice<"sin">];
//
// What cannot be said this way is a hook written by hand beside the backend and named here:
// an `OpHook` in `tilecraft/backends/<target>/elementwise.py` (`@op_hook("name")`), a
// `FunctionHook` in `tilecraft/backends/<target>/mathlib.py` (in `FUNCTION_HOOKS`).
//
//===----------------------------------------------------------------------===//

#ifndef TILECRAFT_LLVMLOWERINGBASE_TD
#define TILECRAFT_LLVMLOWERINGBASE_TD

class LLVMLowering<string ruleBackend, list<string> ruleTypes> {
  // "" (both backends), "cpu" or "cuda".
  string backend = ruleBackend;
  // The LLVM types of the first operand's register the rule applies to; empty: any.
  list<string> types = ruleTypes;
}

// An LLVM instruction on the operands (`add`, `and`, `fdiv`, `fneg`, `select`).
class Instruction<string name, string ruleBackend = "", list<string> ruleTypes = []>
    : LLVMLowering<ruleBackend, ruleTypes> {
  string instruction = name;
  // The instruction takes the kernel's fast-math flags: reassociation inside a reduction's
  // combine region, contraction into fused multiply-adds with `enable_fp_fusion`.
  bit fastMath = 0;
}
class FastMathInstruction<string name, string ruleBackend = "", list<string> ruleTypes = []>
    : Instruction<name, ruleBackend, ruleTypes> {
  let fastMath = 1;
}

// An LLVM conversion instruction from the operand to the result's register type (`zext`,
// `trunc`, `sitofp`).
class CastInstruction<string name, string ruleBackend = "", list<string> ruleTypes = []>
    : LLVMLowering<ruleBackend, ruleTypes> {
  string cast = name;
}

// A call of an LLVM intrinsic overloaded on the operands' type: `Intrinsic<"llvm.sqrt">` calls
// `llvm.sqrt.f32` on f32 registers. `callFlags` are fast-math flags every such call carries,
// where the op's meaning allows them (`["nsz"]`: either zero may come out for -0 and +0).
class Intrinsic<string name, string ruleBackend = "", list<string> ruleTypes = [],
                list<string> flags = []>
    : LLVMLowering<ruleBackend, ruleTypes> {
  string intrinsic = name;
  list<string> callFlags = flags;
}

// A call of a function of the operands' type, by its exact name (a library function or an
// intrinsic that is not overloaded, such as `llvm.nvvm.ex2.approx.ftz.f`).
class Call<string name, string ruleBackend = "", list<string> ruleTypes = []>
    : LLVMLowering<ruleBackend, ruleTypes> {
  string symbol = name;
}

// A math library's function of f32 or f64 operands: `symbol` for f64, `symbol # f32Suffix`
// for f32.
class LibraryCall<string name, string ruleBackend>
    : LLVMLowering<ruleBackend, ["f32", "f64"]> {
  string librarySymbol = name;
  string f32Suffix = "f";
}
// The C math library on the CPU (`erf`, `erff`).
class Libm<string name> : LibraryCall<name, "cpu">;
// NVIDIA's libdevice, linked into every CUDA kernel (`__nv_erf`, `__nv_erff`).
class Libdevice<string name> : LibraryCall<"__nv_" # name, "cuda">;

// Hand-written: a function of the operands' registers, `(builder, args) -> value`, in the
// backend's `mathlib.FUNCTION_HOOKS`.
class FunctionHook<string name, string ruleBackend = "", list<string> ruleTypes = []>
    : LLVMLowering<ruleBackend, ruleTypes> {
  string functionHook = name;
}

// Hand-written: the op's element lowering, `(fl, op, args) -> value`, registered with
// `@op_hook("name")` in the backend's `elementwise` module (the CUDA backend inherits the CPU
// backend's op hooks and overrides some).
class OpHook<string name, string ruleBackend = "", list<string> ruleTypes = []>
    : LLVMLowering<ruleBackend, ruleTypes> {
  string opHook = name;
}

#endif // TILECRAFT_LLVMLOWERINGBASE_TD
