// tt.unsplat, tt.gather, tt.histogram with a mask, tt.dot_scaled, and tensor descriptors with
// their loads, stores, reductions, gathers and scatters.
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
module {
  tt.func @gathers(%src: tensor<128x4xf32>, %idx: tensor<256x4xi32>, %x: tensor<256xi32>, %m: tensor<256xi1>) {
    %0 = tt.gather %src[%idx] {axis = 0 : i32} : (tensor<128x4xf32>, tensor<256x4xi32>) -> tensor<256x4xf32>
    %1 = tt.gather %src[%idx] {axis = 0 : i32, efficient_layout} : (tensor<128x4xf32>, tensor<256x4xi32>) -> tensor<256x4xf32>
    %2 = tt.histogram %x : tensor<256xi32> -> tensor<8xi32>
    %3 = tt.histogram %x, %m : tensor<256xi32> -> tensor<8xi32>
    tt.return
  }
  tt.func @unsplat(%t: tensor<1x1xf32>) -> f32 {
    %0 = tt.unsplat %t : tensor<1x1xf32>
    tt.return %0 : f32
  }
  tt.func @dot_scaled(%a: tensor<128x64xf8E4M3FN>, %b: tensor<64x128xf8E4M3FN>, %a4: tensor<128x32xi8>, %sa: tensor<128x2xi8>, %sb: tensor<128x2xi8>, %c: tensor<128x128xf32>) {
    %0 = tt.dot_scaled %a scale %sa, %b scale %sb, %c lhs = e4m3 rhs = e4m3 {fastMath = false} : tensor<128x64xf8E4M3FN>, tensor<128x2xi8> * tensor<64x128xf8E4M3FN>, tensor<128x2xi8> -> tensor<128x128xf32>
    %1 = tt.dot_scaled %a4 scale %sa, %b, %c lhs = e2m1 rhs = e4m3 {fastMath = true} : tensor<128x32xi8>, tensor<128x2xi8> * tensor<64x128xf8E4M3FN> -> tensor<128x128xf32>
    %2 = tt.dot_scaled %a, %b, %c lhs = e4m3 rhs = e4m3 {fastMath = false, lhs_k_pack = false} : tensor<128x64xf8E4M3FN> * tensor<64x128xf8E4M3FN> -> tensor<128x128xf32>
    tt.return
  }
  tt.func @descriptors(%p: !tt.ptr<f16>, %q: !tt.ptr<f32>, %m: i32, %n: i32, %s: i64, %rows: tensor<32xi32>) {
    %c1 = arith.constant 1 : i64
    %c0 = arith.constant 0 : i32
    %d = tt.make_tensor_descriptor %p, [%m, %n], [%s, %c1] : !tt.ptr<f16>, !tt.tensordesc<128x64xf16>
    %dn = tt.make_tensor_descriptor %p, [%m, %n], [%s, %c1] {padding = 2 : i32} : !tt.ptr<f16>, !tt.tensordesc<128x64xf16, #shared>
    %x = tt.descriptor_load %d[%c0, %n] : !tt.tensordesc<128x64xf16> -> tensor<128x64xf16>
    %y = tt.descriptor_load %dn[%m, %c0] cacheModifier = cg evictionPolicy = evict_last : !tt.tensordesc<128x64xf16, #shared> -> tensor<8192xf16>
    tt.descriptor_store %d[%c0, %c0], %x : !tt.tensordesc<128x64xf16>, tensor<128x64xf16>
    tt.descriptor_reduce add, %d[%c0, %c0], %x : !tt.tensordesc<128x64xf16>, tensor<128x64xf16>
    %r = tt.make_tensor_descriptor %q, [%m, %n], [%s, %c1] : !tt.ptr<f32>, !tt.tensordesc<1x128xf32>
    %g = tt.descriptor_gather %r[%rows, %c0] : (!tt.tensordesc<1x128xf32>, tensor<32xi32>, i32) -> tensor<32x128xf32>
    tt.descriptor_scatter %r[%rows, %c0], %g : !tt.tensordesc<1x128xf32>, tensor<32xi32>, i32, tensor<32x128xf32>
    tt.return
  }
  tt.func @signed_descriptor(%d: !tt.tensordesc<128x64xsi8>, %i: i32) -> tensor<128x64xi8> {
    %x = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<128x64xsi8> -> tensor<128x64xi8>
    tt.return %x : tensor<128x64xi8>
  }
}
