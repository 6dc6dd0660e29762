# 25-dmma.gp: rung 25, the FP64 tensor cores (DMMA). Reads TSM, TSN, TSK, WM, WN, STAGES
# and MMAK. Top left: the block's tile of C cut into warp tiles, and warp 0's tile as the
# 16 x 8 blocks of mma.sync.m16n8kMMAK.f64. Top right: one stage of the shared-memory
# tiles, rows padded by 4 doubles. Bottom: the bank pairs a half-warp's 16 loads of A hit,
# with rows of TSM doubles and with the padded rows of TSM + 4.
canvas_w = 1000
canvas_h = 720
load scripts."/common.gp"

WARPS_M = TSM / WM
WARPS_N = TSN / WN
MT = WM / 16                 # 16-row mma blocks in a warp tile
NT = WN / 8                  # 8-column mma blocks
LDA_S = TSM + 4              # doubles in a row of A's tile, as in the kernel
LDB_S = TSK + 4              # and of B's
SHARED_BYTES = STAGES * (TSK * LDA_S + TSN * LDB_S) * 8
eval heading(20, 32, "Rung 25: the FP64 tensor cores (DMMA), double only")
eval text_at(20, 56, sprintf("TSM = %d, TSN = %d, TSK = %d, WM = %d, WN = %d, STAGES = %d, MMAK = %d", TSM, TSN, TSK, WM, WN, STAGES, MMAK), "left", font_size, c_muted)

# --- the block's tile: WARPS_M x WARPS_N warp tiles, numbered as the kernel numbers them ---
f = 200.0 / (TSM > TSN ? TSM : TSN)
Tx = 40; Ty = 110
eval box(Tx, Ty, Tx + TSN*f, Ty + TSM*f, c_C_light)
eval hbox(Tx, Ty, Tx + WN*f, Ty + WM*f, c_C)
eval grid(Tx, Ty, Tx + TSN*f, Ty + TSM*f, WARPS_N, WARPS_M, c_edge)
do for [wn=0:WARPS_N-1] {
    do for [wm=0:WARPS_M-1] {
        eval text_at(Tx + (wn + 0.5)*WN*f, Ty + (wm + 0.5)*WM*f + 5, sprintf("%d", wm + WARPS_M*wn), "center", font_size - 3, c_text)
    }
}
eval text(Tx + TSN*f/2, Ty + TSM*f + 24, sprintf("block tile of C: %d x %d", TSM, TSN))
eval text_at(Tx + TSN*f/2, Ty + TSM*f + 44, sprintf("%d x %d warps", WARPS_M, WARPS_N), "center", font_size - 1, c_muted)

# --- warp 0's tile: MT x NT blocks of 16 x 8, one mma each per MMAK steps of k ---
z = 200.0 / (WM > WN ? WM : WN)
Wx = Tx + TSN*f + 70; Wy = Ty
eval box(Wx, Wy, Wx + WN*z, Wy + WM*z, c_C_light)
eval grid(Wx, Wy, Wx + WN*z, Wy + WM*z, NT, MT, c_C_dark)
eval hbox(Wx, Wy, Wx + 8*z, Wy + 16*z, c_C)
eval text(Wx + WN*z/2, Wy - 14, sprintf("warp 0: %d x %d", WM, WN))
eval text_at(Wx + WN*z/2, Wy + WM*z + 24, "one mma block: 16 x 8", "center", font_size - 1, c_C_dark)
eval text_at(Tx, Ty + TSM*f + 78, sprintf("per %d steps of k, a warp issues %d x %d = %d", MMAK, MT, NT, MT * NT), "left", font_size - 1, c_text)
eval text_at(Tx, Ty + TSM*f + 98, sprintf("mma.sync.m16n8k%d.f64: exact products, double sums", MMAK), "left", font_size - 1, c_text)

# --- one stage of shared memory: A as [k][m], B as [n][k], each row 4 doubles longer ---
s = 250.0 / (LDA_S > TSN ? LDA_S : TSN)    # pixels per double
Ax = 560; Ay = 110
eval box(Ax, Ay, Ax + LDA_S*s, Ay + TSK*s, c_A_light)
eval hbox(Ax + TSM*s, Ay, Ax + LDA_S*s, Ay + TSK*s, c_off)
eval hcell(Ax, Ay, Ax + 4*s, Ay + 4*s, c_hi)
eval text(Ax + LDA_S*s/2, Ay - 14, sprintf("A's tile [k][m]: %d rows of %d + 4", TSK, TSM))
eval text_at(Ax, Ay + TSK*s + 20, "red: a half-warp's 16 doubles", "left", font_size - 3, c_hi)
Bx = Ax + LDA_S*s + 40; By = Ay
eval box(Bx, By, Bx + LDB_S*s, By + TSN*s, c_B_light)
eval hbox(Bx + TSK*s, By, Bx + LDB_S*s, By + TSN*s, c_off)
eval text(Bx + LDB_S*s/2, By - 14, "B's [n][k]")
eval text_at(Bx + LDB_S*s + 8, By + 12, sprintf("%d rows", TSN), "left", font_size - 3, c_text)
eval text_at(Bx + LDB_S*s + 8, By + 30, sprintf("of %d + 4", TSK), "left", font_size - 3, c_text)
eval note(Ax, Ay + TSK*s + 52, "grey: the padding, 4 doubles a row")
eval note(Ax, Ay + TSK*s + 74, sprintf("x %d stages = %d KiB of dynamic", STAGES, SHARED_BYTES / 1024))
eval note(Ax, Ay + TSK*s + 94, "shared memory")

# --- the bank pairs of a half-warp's loads of A: lane (g, t) reads double t LD + g ---
# A 64-bit load is served 16 lanes at a time; it takes one pass when the 16 doubles differ
# mod 16 (the 16 pairs of 4-byte banks). Each strip: rows t, columns double mod 16.
c = 24                        # pixels per bank pair
Sy = 520
array Sx[2] = [70, 560]
array LD[2] = [TSM, LDA_S]
do for [p=1:2] {
    x0 = Sx[p]
    array count[16]
    do for [b=1:16] { count[b] = 0 }
    do for [t=0:3] {
        do for [g=0:3] {
            bank = (t*LD[p] + g) % 16
            count[bank + 1] = count[bank + 1] + 1
        }
    }
    ways = 0
    do for [b=1:16] { ways = count[b] > ways ? count[b] : ways }
    eval box(x0, Sy, x0 + 16*c, Sy + 4*c, "#ffffff")
    eval grid(x0, Sy, x0 + 16*c, Sy + 4*c, 16, 4, c_grid)
    do for [t=0:3] {
        eval text_at(x0 - 6, Sy + (t + 0.5)*c + 5, sprintf("t = %d", t), "right", font_size - 3, c_text)
        do for [g=0:3] {
            bank = (t*LD[p] + g) % 16
            eval hcell(x0 + bank*c, Sy + t*c, x0 + (bank + 1)*c, Sy + (t + 1)*c, count[bank + 1] > 1 ? c_hi : c_A)
            eval text_at(x0 + (bank + 0.5)*c, Sy + (t + 0.5)*c + 4, sprintf("%d", 4*g + t), "center", 11, count[bank + 1] > 1 ? "#ffffff" : c_text)
        }
    }
    do for [b=0:15] {
        eval text_at(x0 + (b + 0.5)*c, Sy - 6, sprintf("%d", b), "center", 11, c_muted)
    }
    eval frame(x0, Sy, x0 + 16*c, Sy + 4*c, c_edge, 1)
    eval textl(x0, Sy - 50, p == 1 ? sprintf("unpadded, rows of TSM = %d doubles:", LD[p]) : sprintf("padded, rows of TSM + 4 = %d doubles:", LD[p]))
    eval text_at(x0, Sy - 28, sprintf("lane (g, t) reads %d t + g, bank pair (%d t + g) mod 16", LD[p], LD[p] % 16), "left", font_size - 3, c_muted)
    eval text_at(x0, Sy + 4*c + 24, ways > 1 ? sprintf("%d-way conflict: %d passes", ways, ways) : "16 different bank pairs: one pass", "left", font_size - 1, ways > 1 ? c_hi : c_C_dark)
}
eval note(70, Sy + 4*c + 60, sprintf("Numbers are lanes l = 4g + t, g = 0..3. B's tile: lane (g, t) reads g (TSK + 4) + t = %d g + t (mod 16), also 16 pairs.", LDB_S % 16))

eval finish
