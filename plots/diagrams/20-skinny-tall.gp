# 20-skinny-tall.gp: rung 20's tall path (N <= 16: a tall A times a few columns of B).
# Reads WG, RX, TQ and GPC (the wide path's KL, WC, WU are in 20-skinny-wide.gp). One
# work-group's rows of A over one round of K: which work-item loads which float4s, the
# round's slab of B in local memory, and how the partial sums meet.
canvas_w = 1000
canvas_h = 580
load scripts."/common.gp"

LY = WG / RX                 # work-items along K
KCT = LY * 4 * TQ            # depths of K in one round of a work-group
eval heading(20, 32, "Rung 20, tall path (N <= 16): stream A once")
eval text_at(20, 56, sprintf("WG = %d, RX = %d, TQ = %d, GPC = %d   (LY = WG/RX = %d work-items along K, a round of KCT = 4 LY TQ = %d depths)", WG, RX, TQ, GPC, LY, KCT), "left", font_size - 1, c_muted)

# --- a work-group's 4 RX rows of A over one round: RX x KCT/4 blocks of 4 rows x 4 depths ---
Ax = 60; Ay = 120; Aw = 880.0
u = Aw / (KCT / 4)           # pixels per group of 4 depths
r = 16                       # pixels per float4 of rows
eval textl(Ax, Ay - 14, sprintf("A: the work-group's %d rows (down) x one round of %d depths (across)", 4 * RX, KCT))
eval box(Ax, Ay, Ax + Aw, Ay + RX*r, c_A_light)
eval grid(Ax, Ay, Ax + Aw, Ay + RX*r, KCT / 4, 1, "#ffffff")
eval grid(Ax, Ay, Ax + Aw, Ay + RX*r, 1, RX, c_A)
do for [q=0:TQ-1] {
    eval hcell(Ax + (LY*q)*u, Ay, Ax + (LY*q + 1)*u, Ay + r, c_hi)
    eval hcell(Ax + (LY*q + 1)*u, Ay, Ax + (LY*q + 2)*u, Ay + r, c_hi2)
    if (q > 0) { eval line(Ax + LY*q*u, Ay - 4, Ax + LY*q*u, Ay + RX*r + 4, c_A_dark, 1.5) }
}
eval text_at(Ax, Ay + RX*r + 22, sprintf("work-item (x 0, y 0): rows 0-3, depths 0-3, %d-%d, ... : 4 TQ = %d float4 loads in flight per round", 4*LY, 4*LY + 3, 4 * TQ), "left", font_size - 1, c_hi)
eval text_at(Ax, Ay + RX*r + 42, sprintf("work-item (x 0, y 1): the next 4 depths. Work-items x 0 ... x %d, consecutive, read consecutive float4s: coalesced", RX - 1), "left", font_size - 1, c_hi2)
eval textr(Ax - 8, Ay + r/2 + 5, "x 0")
eval textr(Ax - 8, Ay + RX*r - r/2 + 5, sprintf("x %d", RX - 1))

# --- B's few columns for the round, staged once in local memory ---
NB = 4                       # columns drawn (N = 3 or 4 runs tall_n4)
By = Ay + RX*r + 80
eval box(Ax, By, Ax + Aw, By + NB*10, c_B)
eval grid(Ax, By, Ax + Aw, By + NB*10, 1, NB, "#ffffff")
eval textl(Ax, By + NB*10 + 22, sprintf("B: its N columns (here %d) at the round's %d depths, staged once in local memory, read as float4s by all", NB, KCT))

# --- the sums ---
Sy = By + NB*10 + 70
eval textl(Ax, Sy, sprintf("After the last round, the LY = %d work-items of each float4 of rows add their partial sums in a halving tree", LY))
eval textl(Ax, Sy + 22, sprintf("in local memory (%d steps). When the rows make fewer work-groups than GPC = %d per compute unit, K is split", int(log(LY) / log(2) + 0.5), GPC))
eval textl(Ax, Sy + 44, "across work-groups too: each slice writes partial sums to the workspace and reduce adds them in slice order.")
eval text_at(Ax, Sy + 80, "Each float of A is read once and used N times: at N <= 16 the ceiling is memory bandwidth, not arithmetic.", "left", font_size, c_A_dark)

eval finish
