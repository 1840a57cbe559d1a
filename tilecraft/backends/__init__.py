"""Code generation targets: ``cpu`` (host LLVM through llvmlite's JIT); ``nvptx`` comes later."""
