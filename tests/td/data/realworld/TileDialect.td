#ifndef TILE_DIALECT
#define TILE_DIALECT

include "tile/OpBase.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let cppNamespace = "::tilecraft::tile";
  let extraClassDeclaration = [{
    void registerTypes();
    static bool isTiled(::mlir::Type type);
  }];
}

// Pointer-to-element type, as in Triton's `!tt.ptr<f32>`.
def Tile_Ptr : Type<CPred<"::llvm::isa<::tilecraft::tile::PointerType>($_self)">,
                    "pointer", "::tilecraft::tile::PointerType">;

defvar Tile_ElementTypes = [I1, I32, I64, F16, F32, F64, Tile_Ptr];
def Tile_Int : AnyTypeOf<[I1, I32, I64]>;
def Tile_Float : AnyTypeOf<[F16, F32, F64], "floating-point">;
def Tile_Tensor : TensorOf<Tile_ElementTypes>;
def Tile_IntLike : AnyTypeOf<[Tile_Int, TensorOf<[I1, I32, I64]>]>;
def Tile_FloatLike : AnyTypeOf<[Tile_Float, TensorOf<[F16, F32, F64]>]>;
def Tile_PtrLike : AnyTypeOf<[Tile_Ptr, TensorOf<[Tile_Ptr]>]>;
def Tile_Type : AnyTypeOf<[Tile_IntLike, Tile_FloatLike, Tile_PtrLike]>;

class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, !listconcat(traits, [Pure])>;

#endif // TILE_DIALECT
