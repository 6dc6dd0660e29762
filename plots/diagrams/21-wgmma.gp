# 21-wgmma.gp: rung 21, Hopper's path: TMA copies into a ring of STAGES stages, each
# completing on its mbarrier, and warpgroups multiplying with wgmma from shared memory.
# Reads TSM, TSN and STAGES. Top: thread 0 and the stages; middle: the warpgroups and what
# one k-tile asks of them; bottom: a schematic timeline, the tensor cores idle at the end
# of every k-tile (wgmma_wait<0> and a block barrier), which rung 23 removes.
canvas_w = 1000
canvas_h = 640
load scripts."/common.gp"

WARPGROUPS = TSM / 64
eval heading(20, 32, "Rung 21: TMA copies into stages, wgmma from shared memory")
eval text_at(20, 56, sprintf("TSM = %d, TSN = %d, STAGES = %d, a k-tile 32 deep;   block: %d warpgroups, %d threads", TSM, TSN, STAGES, WARPGROUPS, WARPGROUPS * 128), "left", font_size, c_muted)

# --- thread 0 and the ring of stages ---
eval box(20, 110, 160, 190, c_hi)
eval text_at(90, 140, "thread 0", "center", font_size, "#ffffff")
eval text_at(90, 162, "issues the", "center", font_size - 3, "#ffffff")
eval text_at(90, 178, "copies", "center", font_size - 3, "#ffffff")
Rx = 190; Ry = 86; Rw = 790; EMPTY = 0
load scripts."/stages.gp"
eval arrow(160, 150, Rx - 2, 150)
ny = Ry + Rh + 26
eval textl(20, ny, sprintf("Per k-tile, %d TMA boxes (cp.async.bulk.tensor): %d of A and 1 of B. The copy engine computes every", TSM / 32 + 1, TSM / 32))
eval textl(20, ny + 22, "address from a tensor map made on the host and writes zeros outside the matrix; the copies announce")
eval textl(20, ny + 44, sprintf("%d bytes on full[s] (expect_tx), whose phase completes when they have landed. Thread 0 keeps", (TSM + TSN) * 32 * 4))
eval textl(20, ny + 66, sprintf("STAGES - 1 = %d k-tiles in flight. Both tiles use the 128-byte swizzle.", STAGES - 1))

# --- the warpgroups ---
Wy = ny + 138
ww = (960 - (WARPGROUPS - 1) * 20) / (1.0 * WARPGROUPS)
do for [w=0:WARPGROUPS-1] {
    wx = 20 + w * (ww + 20)
    eval box(wx, Wy, wx + ww, Wy + 92, c_C_light)
    eval textl(wx + 12, Wy + 24, sprintf("warpgroup %d: 4 warps, 128 threads", w))
    eval smalll(wx + 12, Wy + 46, sprintf("rows %d-%d of the block's %d x %d tile of C:", 64 * w, 64 * w + 63, TSM, TSN))
    eval smalll(wx + 12, Wy + 64, sprintf("%d accumulators per thread, in registers", TSN / 2))
    eval smalll(wx + 12, Wy + 82, sprintf("per k-tile: 4 x wgmma m64n%dk8, one per 8 depths", TSN))
}
eval arrow(Rx + 40, ny + 76, Rx + 40, Wy - 2)
eval text_at(Rx + 52, Wy - 34, "wait full[s]; A: 16 values per thread into registers (TF32 reads shared memory only K-major);", "left", font_size - 2, c_text)
eval text_at(Rx + 52, Wy - 12, "B: read by the tensor cores through a 64-bit descriptor, no registers", "left", font_size - 2, c_text)

# --- the timeline ---
Ty = Wy + 134
eval textl(20, Ty - 16, "Each k-tile ends with wgmma_wait<0> and __syncthreads before its stage is refilled: the tensor cores drain (grey).")
Tx = 20; Tw = 960; LEAD = STAGES - 1; IDLE = 1
load scripts."/timeline.gp"

eval finish
