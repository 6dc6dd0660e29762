# 12-warptile.gp: rung 12, warp tiling. Reads TSM, TSN, TSK and WM (WN = 2048 / WM, as in
# the kernel). Left: the block's tile of C cut into warp tiles. Right: one warp tile, its
# lanes' 4 x 4 blocks numbered; lane 0 and lane LM + 1 followed in colour.
canvas_w = 1000
canvas_h = 620
load scripts."/common.gp"

WN = 2048 / WM               # a warp's 32 lanes x 64 elements
WARPS_M = TSM / WM
WARPS_N = TSN / WN
LM = WM / 8                  # lanes along m
LN = 32 / LM                 # lanes along n
eval heading(20, 32, "Rung 12: warp tiling")
eval text_at(20, 56, sprintf("TSM = %d, TSN = %d, TSK = %d, WM = %d   (WN = 2048 / WM = %d)", TSM, TSN, TSK, WM, WN), "left", font_size, c_muted)

# --- the block's tile: WARPS_M x WARPS_N warp tiles, numbered as the kernel numbers them ---
f = 320.0 / (TSM > TSN ? TSM : TSN)
Tx = 40; Ty = 110
eval box(Tx, Ty, Tx + TSN*f, Ty + TSM*f, c_C_light)
eval hbox(Tx, Ty, Tx + WN*f, Ty + WM*f, c_C)
eval grid(Tx, Ty, Tx + TSN*f, Ty + TSM*f, WARPS_N, WARPS_M, c_edge)
do for [wn=0:WARPS_N-1] {
    do for [wm=0:WARPS_M-1] {
        eval text_at(Tx + (wn + 0.5)*WN*f, Ty + (wm + 0.5)*WM*f + 5, sprintf("warp %d", wm + WARPS_M*wn), "center", font_size - 1, c_text)
    }
}
eval text(Tx + TSN*f/2, Ty + TSM*f + 24, sprintf("the block's tile of C: %d x %d,", TSM, TSN))
eval text(Tx + TSN*f/2, Ty + TSM*f + 46, sprintf("%d x %d warps = %d threads", WARPS_M, WARPS_N, 32 * WARPS_M * WARPS_N))

# --- warp 0's tile: 4 x 4 blocks, lane (bm mod LM) + LM (bn mod LN) ---
z = 320.0 / (WM > 2*WN ? WM : 2*WN)
Wx = 470; Wy = 110
eval box(Wx, Wy, Wx + WN*z, Wy + WM*z, c_C_light)
eval grid(Wx, Wy, Wx + WN*z, Wy + WM*z, WN / 4, WM / 4, c_C)
lane_a = 0; lane_b = LM + 1
do for [bn=0:WN/4-1] {
    do for [bm=0:WM/4-1] {
        lane = bm % LM + LM * (bn % LN)
        if (lane == lane_a || lane == lane_b) {
            eval hcell(Wx + 4*bn*z, Wy + 4*bm*z, Wx + 4*(bn+1)*z, Wy + 4*(bm+1)*z, lane == lane_a ? c_hi : c_hi2)
        }
        eval text_at(Wx + (4*bn + 2)*z, Wy + (4*bm + 2)*z + 4, sprintf("%d", lane), "center", 10, (lane == lane_a || lane == lane_b) ? "#ffffff" : c_muted)
    }
}
eval line(Wx + WN*z/2, Wy, Wx + WN*z/2, Wy + WM*z, c_edge, 1.5)
eval line(Wx, Wy + WM*z/2, Wx + WN*z, Wy + WM*z/2, c_edge, 1.5)
eval frame(Wx, Wy, Wx + WN*z, Wy + WM*z, c_edge, 1.5)
eval text(Wx + WN*z/2, Wy - 14, sprintf("warp 0: WM x WN = %d x %d", WM, WN))

# --- what the numbers mean ---
Lx = Wx + WN*z + 30
eval textl(Lx, 130, sprintf("32 lanes as an LM x LN grid,"))
eval textl(Lx, 152, sprintf("LM = WM/8 = %d by LN = %d;", LM, LN))
eval textl(Lx, 174, "each lane owns a 4 x 4 block in")
eval textl(Lx, 196, "each quarter: 8 x 8 elements.")
eval text_at(Lx, 240, sprintf("lane %d: rows 0-3 and %d-%d,", lane_a, WM/2, WM/2 + 3), "left", font_size - 1, c_hi)
eval text_at(Lx, 260, sprintf("columns 0-3 and %d-%d", WN/2, WN/2 + 3), "left", font_size - 1, c_hi)
eval text_at(Lx, 290, sprintf("lane %d: rows 4-7 and %d-%d,", lane_b, WM/2 + 4, WM/2 + 7), "left", font_size - 1, c_hi2)
eval text_at(Lx, 310, sprintf("columns 4-7 and %d-%d", WN/2 + 4, WN/2 + 7), "left", font_size - 1, c_hi2)

y0 = 524
eval textl(30, y0, sprintf("At each depth k a warp reads WM + WN = %d floats of the tiles. One float4 load of A by the warp asks for", WM + WN))
eval textl(30, y0 + 22, sprintf("LM = %d different float4s, each broadcast to the LN = %d lanes of a row of blocks (the same rows); one load", LM, LN))
eval textl(30, y0 + 44, sprintf("of B asks for LN = %d, each broadcast to the LM = %d lanes of a column of blocks (the same columns).", LN, LM))

eval finish
