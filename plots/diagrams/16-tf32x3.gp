# 16-tf32x3.gp: rung 16, tensor cores at float32 accuracy (3xTF32). Reads TSM, TSN, TSK,
# WM, WN (STAGES is not drawn). Top: a float's 24 significant bits shared between its big
# and small TF32 parts. Bottom left: the three products kept and the one dropped. Bottom
# right: the warp's tile as the 16 x 8 blocks of mma.sync.m16n8k8.
canvas_w = 1000
canvas_h = 600
load scripts."/common.gp"

MT = WM / 16                 # 16-row mma blocks in a warp tile
NT = WN / 8                  # 8-column mma blocks
WARPS_M = TSM / WM
WARPS_N = TSN / WN
eval heading(20, 32, "Rung 16: tensor cores at float32 accuracy (3xTF32)")
eval text_at(20, 56, sprintf("TSM = %d, TSN = %d, TSK = %d, WM = %d, WN = %d", TSM, TSN, TSK, WM, WN), "left", font_size, c_muted)

# --- x's significand: 24 bits, 11 to big, 11 to small, 2 lost ---
b = 26                       # pixels per bit
Sx = 120; Sy = 116
eval textl(Sx, Sy - 12, "x, a float32: its 24 significant bits (1 implicit, 23 stored)")
do for [i=0:23] {
    eval box(Sx + i*b, Sy, Sx + (i+1)*b, Sy + b, i < 11 ? c_A : i < 22 ? c_B : c_off)
    eval small(Sx + (i+0.5)*b, Sy + b/2 + 5, i == 0 ? "1" : "m")
}
eval line(Sx, Sy + b + 8, Sx + 11*b, Sy + b + 8, c_A_dark, 2)
eval line(Sx + 11*b, Sy + b + 8, Sx + 22*b, Sy + b + 8, c_B_dark, 2)
eval text_at(Sx + 5.5*b, Sy + b + 28, "big = tf32(x): 11 bits", "center", font_size, c_A_dark)
eval text_at(Sx + 16.5*b, Sy + b + 28, "small = tf32(x - big): 11 more", "center", font_size, c_B_dark)
eval text_at(Sx + 23*b, Sy + b + 28, "lost", "center", font_size - 1, c_muted)
eval note(Sx - 90, Sy + b + 62, "TF32 keeps float32's 8-bit exponent and 10 of its 23 mantissa bits; x - big is exact in float32,")
eval note(Sx - 90, Sy + b + 82, "so the two parts hold about 22 of x's 24 significant bits.")

# --- the four products of two split numbers: three on the tensor cores, one dropped ---
Px = 130; Py = 330; pw = 180; ph = 56
eval text(Px + pw, Py - 40, "a x b = (a_big + a_small) x (b_big + b_small)")
eval text_at(Px + pw/2, Py - 10, "b_big", "center", font_size, c_B_dark)
eval text_at(Px + 1.5*pw, Py - 10, "b_small", "center", font_size, c_B_dark)
eval text_at(Px - 10, Py + ph/2 + 5, "a_big", "right", font_size, c_A_dark)
eval text_at(Px - 10, Py + 1.5*ph + 5, "a_small", "right", font_size, c_A_dark)
eval box(Px, Py, Px + pw, Py + ph, c_C)
eval box(Px + pw, Py, Px + 2*pw, Py + ph, c_C)
eval box(Px, Py + ph, Px + pw, Py + 2*ph, c_C)
eval box(Px + pw, Py + ph, Px + 2*pw, Py + 2*ph, c_off)
eval text(Px + pw/2, Py + ph/2 + 5, "mma 3 (last)")
eval text(Px + 1.5*pw, Py + ph/2 + 5, "mma 2")
eval text(Px + pw/2, Py + 1.5*ph + 5, "mma 1 (first)")
eval text_at(Px + 1.5*pw, Py + 1.5*ph - 4, "dropped:", "center", font_size - 1, c_muted)
eval text_at(Px + 1.5*pw, Py + 1.5*ph + 14, "at most 2^-22 |ab|", "center", font_size - 1, c_muted)
eval note(Px - 100, Py + 2*ph + 30, "Three tensor-core products per multiply-add, the small terms first;")
eval note(Px - 100, Py + 2*ph + 50, "each product of two TF32 numbers is exact in float32.")

# --- the warp's tile: MT x NT blocks of 16 x 8, the block's tile WARPS_M x WARPS_N warps ---
q = 224.0 / (WM > WN ? WM : WN)
Wx = 640; Wy = 300
eval box(Wx, Wy, Wx + WN*q, Wy + WM*q, c_C_light)
eval grid(Wx, Wy, Wx + WN*q, Wy + WM*q, NT, MT, c_C_dark)
eval hbox(Wx, Wy, Wx + 8*q, Wy + 16*q, c_C)
eval text(Wx + WN*q/2, Wy - 34, sprintf("a warp's tile: WM x WN = %d x %d", WM, WN))
eval text(Wx + WN*q/2, Wy - 12, sprintf("= %d x %d blocks of 16 x 8", MT, NT))
eval text_at(Wx - 12, Wy + 8*q + 5, "one mma block", "right", font_size - 1, c_C_dark)
eval text_at(Wx + WN*q/2, Wy + WM*q + 24, sprintf("per 8 steps of k: 3 x %d = %d mma.sync.m16n8k8", MT * NT, 3 * MT * NT), "center", font_size - 1, c_text)
eval text_at(Wx + WN*q/2, Wy + WM*q + 44, sprintf("block: %d x %d warps over a %d x %d tile", WARPS_M, WARPS_N, TSM, TSN), "center", font_size - 1, c_muted)

eval finish
