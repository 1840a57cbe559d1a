//===- TileOps.td - tile dialect operations -------------------*- tablegen -*-===//
//
// A Triton-style dialect written for the tilecraft front-end tests.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_OPS
#define TILE_OPS

include "TileDialect.td"
include "tile/OpBase.td"   // second include: skipped by its guard

def Tile_ProgramIdOp : Tile_Op<"get_program_id"> {
  let summary = "Index of the current program along an axis";
  let arguments = (ins ConfinedAttr<I32Attr, [IntMinValue<0>]>:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
}

def Tile_LoadOp : Tile_Op<"load", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    AllTypesMatch<["ptr", "result"]>]> {
  let summary = "Load a tile from memory";
  let description = [{
    Loads the elements pointed to by `ptr`, masked by `mask`; masked-out
    lanes take `other`:

    ```mlir
    %x = tile.load %p, %m, %o {cache = "ca"} : tensor<128x!tile.ptr<f32>>
    ```
  }];
  let arguments = (ins Tile_PtrLike:$ptr,
                       Optional<Tile_IntLike>:$mask,
                       Optional<Tile_Type>:$other,
                       DefaultValuedAttr<StrAttr, "\"none\"">:$cache,
                       DefaultValuedAttr<BoolAttr, "false">:$isVolatile,
                       OptionalAttr<I32Attr>:$evict);
  let results = (outs Tile_Type:$result);
  let builders = [
    OpBuilder<(ins "::mlir::Value":$ptr, "::llvm::StringRef":$cache), [{
      build($_builder, $_state, ptr, /*mask=*/{}, /*other=*/{}, cache);
    }]>,
    OpBuilder<(ins "::mlir::Value":$ptr)>
  ];
  let assemblyFormat = [{
    $ptr (`,` $mask^)? (`,` $other^)? attr-dict `:` type($ptr) `->` type($result)
  }];
  let hasCanonicalizer = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    bool isMasked() { return getMask() != nullptr; }
  }];
}

// Binary arithmetic, one op per (name, operand type).
multiclass Tile_BinaryOp<string mnemonic, Type type, list<Trait> traits = []> {
  def _ : Tile_Op<mnemonic, !listconcat(traits, [SameOperandsAndResultType])> {
    let summary = "Elementwise " # mnemonic # " of " # type.summary;
    let arguments = (ins type:$lhs, type:$rhs);
    let results = (outs type:$result);
    let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
  }
}

foreach name = ["add", "mul"] in {
  defvar trait = !cast<Trait>("Commutative");
  defm Tile_I # name : Tile_BinaryOp<name # "i", Tile_IntLike, [trait]>;
  defm Tile_F # name : Tile_BinaryOp<name # "f", Tile_FloatLike, [trait]>;
}
defm Tile_Subi : Tile_BinaryOp<"subi", Tile_IntLike>;

let hasFolder = 1 in {
  def Tile_SplatOp : Tile_Op<"splat"> {
    let arguments = (ins Tile_Type:$src);
    let results = (outs Tile_Tensor:$result);
    let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  }
  def Tile_ReturnOp : Tile_Op<"return", [Terminator]> {
    let arguments = (ins Variadic<AnyType>:$operands);
    let assemblyFormat = "attr-dict ($operands^ `:` type($operands))?";
  }
}

#endif // TILE_OPS
