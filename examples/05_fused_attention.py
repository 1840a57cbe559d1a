"""Fused attention, forward pass (after Triton's tutorial 06, with tilecraft's imports): one
program per block of queries and (batch, head); an online softmax over blocks of keys in base 2,
with an optional causal mask.

    python examples/05_fused_attention.py [--ir]
"""

import numpy as np

import tilecraft as tc
import tilecraft.language as tl
from _report import device_array, empty_like, report, relative_error, show_ir, stride


@tc.jit
def _attn_fwd(Q, K, V, sm_scale, Out,
              stride_qz, stride_qh, stride_qm, stride_qk,
              stride_kz, stride_kh, stride_kn, stride_kk,
              stride_vz, stride_vh, stride_vn, stride_vk,
              stride_oz, stride_oh, stride_om, stride_ok,
              H, N_CTX,
              HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
              CAUSAL: tl.constexpr):
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    off_z = off_hz // H
    off_h = off_hz % H
    q_offset = off_z * stride_qz + off_h * stride_qh
    k_offset = off_z * stride_kz + off_h * stride_kh
    v_offset = off_z * stride_vz + off_h * stride_vh
    o_offset = off_z * stride_oz + off_h * stride_oh
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    # the running maximum, the running sum of exponentials, and the output accumulator
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32) + 1.0
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504  # 1/log(2): exp2 instead of exp
    q_ptrs = Q + q_offset + offs_m[:, None] * stride_qm + offs_d[None, :] * stride_qk
    q = tl.load(q_ptrs, mask=offs_m[:, None] < N_CTX, other=0.0)
    hi = tl.minimum((start_m + 1) * BLOCK_M, N_CTX) if CAUSAL else N_CTX
    for start_n in range(0, hi, BLOCK_N):
        cols = start_n + offs_n
        k_ptrs = K + k_offset + cols[None, :] * stride_kn + offs_d[:, None] * stride_kk
        k = tl.load(k_ptrs, mask=cols[None, :] < N_CTX, other=0.0)
        qk = tl.dot(q, k)
        valid = cols[None, :] < N_CTX
        if CAUSAL:
            valid = valid & (offs_m[:, None] >= cols[None, :])
        qk = tl.where(valid, qk * qk_scale, -1.0e6)
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        qk = qk - m_ij[:, None]
        p = tl.math.exp2(qk)
        l_ij = tl.sum(p, 1)
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + l_ij
        acc = acc * alpha[:, None]
        v_ptrs = V + v_offset + cols[:, None] * stride_vn + offs_d[None, :] * stride_vk
        v = tl.load(v_ptrs, mask=cols[:, None] < N_CTX, other=0.0)
        acc = tl.dot(p.to(tl.float16), v, acc)
        m_i = m_ij
    acc = acc / l_i[:, None]
    o_ptrs = Out + o_offset + offs_m[:, None] * stride_om + offs_d[None, :] * stride_ok
    tl.store(o_ptrs, acc.to(Out.dtype.element_ty), mask=offs_m[:, None] < N_CTX)


def attention(q, k, v, causal, sm_scale):
    Z, H, N_CTX, HEAD_DIM = q.shape
    o = empty_like(q)
    BLOCK_M, BLOCK_N = 32, 16
    grid = (tc.cdiv(N_CTX, BLOCK_M), Z * H, 1)
    strides = [stride(t, dim) for t in (q, k, v, o) for dim in range(4)]
    _attn_fwd[grid](q, k, v, sm_scale, o, *strides, H, N_CTX, HEAD_DIM=HEAD_DIM,
                    BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, CAUSAL=causal)
    return o


def reference(q, k, v, causal, sm_scale):
    q, k, v = (t.astype(np.float64) for t in (q, k, v))
    scores = q @ np.swapaxes(k, -1, -2) * sm_scale
    if causal:
        n = q.shape[2]
        scores = np.where(np.tril(np.ones((n, n), bool)), scores, -np.inf)
    scores = np.exp(scores - scores.max(-1, keepdims=True))
    return (scores / scores.sum(-1, keepdims=True)) @ v


if __name__ == "__main__":
    rng = np.random.default_rng()
    Z, H, N_CTX, HEAD_DIM = 2, 3, 100, 32
    q_np, k_np, v_np = (rng.standard_normal((Z, H, N_CTX, HEAD_DIM)).astype(np.float16) * 0.5
                        for _ in range(3))
    q, k, v = (device_array(t) for t in (q_np, k_np, v_np))
    sm_scale = 0.5
    for causal in (False, True):
        out = attention(q, k, v, causal, sm_scale)
        error = relative_error(out, reference(q_np, k_np, v_np, causal, sm_scale))
        report(f"fused attention (causal={causal})", _attn_fwd, error, 1e-2)
    strides = [stride(t, dim) for t in (q, k, v, out) for dim in range(4)]
    show_ir(_attn_fwd, q, k, v, sm_scale, out, *strides, H, N_CTX, HEAD_DIM=HEAD_DIM,
            BLOCK_M=32, BLOCK_N=16, CAUSAL=True)
