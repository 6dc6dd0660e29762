# 20-skinny-wide.gp: rung 20's wide path (M <= 16: a few rows of A times a wide B).
# Reads WG, KL, WC, WU and GPC (the tall path's RX, TQ are in 20-skinny-tall.gp). One
# work-group's columns of B over one round of K: which lane loads which float4s, the
# round's slab of A in local memory, and the lanes' sums meeting by shuffles.
canvas_w = 1000
canvas_h = 600
load scripts."/common.gp"

LN = WG / KL                 # work-items along N (groups of KL lanes)
KCW = 4 * KL * WU            # depths of K in one round
eval heading(20, 32, "Rung 20, wide path (M <= 16): stream B once")
eval text_at(20, 56, sprintf("WG = %d, KL = %d, WC = %d, WU = %d, GPC = %d   (LN = WG/KL = %d, a round of KCW = 4 KL WU = %d depths)", WG, KL, WC, WU, GPC, LN, KCW), "left", font_size - 1, c_muted)

# --- the work-group's LN WC columns of B over one round, drawn with K across ---
Bx = 60; By = 120; Bw = 880.0
u = Bw / (KCW / 4)           # pixels per float4 (4 depths)
r = 200.0 / (LN * WC)        # pixels per column
eval textl(Bx, By - 14, sprintf("B: the work-group's %d columns (down) x one round of %d depths (across)", LN * WC, KCW))
eval box(Bx, By, Bx + Bw, By + LN*WC*r, c_B_light)
eval grid(Bx, By, Bx + Bw, By + LN*WC*r, KCW / 4, LN * WC, "#ffffff")
eval grid(Bx, By, Bx + Bw, By + LN*WC*r, 1, LN, c_B)
do for [w=0:WU-1] {
    eval hcell(Bx + (KL*w)*u, By, Bx + (KL*w + 1)*u, By + WC*r, c_hi)
    eval hcell(Bx + (KL*w + 1)*u, By, Bx + (KL*w + 2)*u, By + WC*r, c_hi2)
    if (w > 0) { eval line(Bx + KL*w*u, By - 4, Bx + KL*w*u, By + LN*WC*r + 4, c_B_dark, 1.5) }
}
eval textr(Bx - 8, By + WC*r/2 + 5, "y 0")
eval textr(Bx - 8, By + LN*WC*r - WC*r/2 + 5, sprintf("y %d", LN - 1))
eval text_at(Bx, By + LN*WC*r + 22, sprintf("lane x 0 of y 0: columns 0-%d, depths 0-3, %d-%d, ... : WC WU = %d float4 loads in flight per round", WC - 1, 4*KL, 4*KL + 3, WC * WU), "left", font_size - 1, c_hi)
eval text_at(Bx, By + LN*WC*r + 42, sprintf("lane x 1: the next 4 depths. The KL = %d lanes of a column, consecutive, read consecutive float4s: coalesced", KL), "left", font_size - 1, c_hi2)

# --- A's few rows for the round, staged once in local memory ---
MB = 4                       # rows drawn
Ay = By + LN*WC*r + 80
eval box(Bx, Ay, Bx + Bw, Ay + MB*10, c_A)
eval grid(Bx, Ay, Bx + Bw, Ay + MB*10, 1, MB, "#ffffff")
eval textl(Bx, Ay + MB*10 + 22, sprintf("A: its M rows (here %d) at the round's %d depths, staged once in local memory, read as float4s by all", MB, KCW))

# --- the lanes' sums: a halving of shuffles in registers ---
Sy = Ay + MB*10 + 64
steps = int(log(KL) / log(2) + 0.5)
eval textl(Bx, Sy, sprintf("After the last round, the KL = %d lanes of each column add their sums with __shfl_down_sync in %d steps", KL, steps))
eval textl(Bx, Sy + 22, sprintf("(registers, no barrier; OpenCL: a halving tree in local memory), and lane 0 writes C. With fewer work-groups"))
eval textl(Bx, Sy + 44, sprintf("than GPC = %d per compute unit, K is split across work-groups and reduce adds the slices, as in the tall path.", GPC))
eval text_at(Bx, Sy + 80, "Each float of B is read once and used M times: at M <= 16 the ceiling is memory bandwidth, not arithmetic.", "left", font_size, c_B_dark)

eval finish
