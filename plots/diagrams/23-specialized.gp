# 23-specialized.gp: rung 23 (and 24, which keeps its pipeline), warp specialization: a
# producer warpgroup copies, consumer warpgroups multiply, and the two meet through two
# mbarriers per stage, full[s] and empty[s], instead of block barriers. Reads TSM, TSN and
# STAGES. Top: the roles and the ring of stages; bottom: a schematic timeline, one k-tile
# of wgmmas always queued behind the one running (wgmma_wait<1>).
canvas_w = 1000
canvas_h = 640
load scripts."/common.gp"

CONSUMERS = TSM / 64
eval heading(20, 32, "Rungs 23-24: a producer warpgroup, consumers, and mbarriers both ways")
eval text_at(20, 56, sprintf("TSM = %d, TSN = %d, STAGES = %d;   block: %d consumer warpgroups and 1 producer warpgroup, %d threads", TSM, TSN, STAGES, CONSUMERS, (CONSUMERS + 1) * 128), "left", font_size, c_muted)

# --- the producer ---
eval box(20, 100, 180, 200, c_hi)
eval text_at(100, 126, "producer", "center", font_size, "#ffffff")
eval text_at(100, 148, "warpgroup: 1 thread", "center", font_size - 3, "#ffffff")
eval text_at(100, 166, "copies, 127 idle;", "center", font_size - 3, "#ffffff")
eval text_at(100, 184, "40 registers each", "center", font_size - 3, "#ffffff")
Rx = 210; Ry = 86; Rw = 770; EMPTY = 1
load scripts."/stages.gp"
eval arrow(180, 150, Rx - 2, 150)

ny = Ry + Rh + 28
eval textl(20, ny, "The producer waits for empty[s], then issues stage s's copies, which complete full[s]. A consumer waits for")
eval textl(20, ny + 22, "full[s], issues its wgmmas, and once they are done arrives on empty[s]: one arrival per consumer warpgroup")
eval textl(20, ny + 44, "completes it. No block barrier: each side waits only for the stage it needs, by the barrier's phase parity.")

# --- the consumers ---
Wy = ny + 84
ww = (960 - (CONSUMERS - 1) * 20) / (1.0 * CONSUMERS)
do for [w=0:CONSUMERS-1] {
    wx = 20 + w * (ww + 20)
    eval box(wx, Wy, wx + ww, Wy + 92, c_C_light)
    eval textl(wx + 12, Wy + 24, sprintf("consumer warpgroup %d: 128 threads", w))
    eval smalll(wx + 12, Wy + 46, sprintf("rows %d-%d of the %d x %d tile of C, %d accumulators", 64 * w, 64 * w + 63, TSM, TSN, TSN / 2))
    eval smalll(wx + 12, Wy + 64, sprintf("per thread; setmaxnreg raises it to %d registers", CONSUMERS == 2 ? 232 : 240))
    eval smalll(wx + 12, Wy + 82, "issue k-tile kt, wait<1> for kt - 1, arrive empty")
}
eval arrow(Rx + 60, ny + 54, Rx + 60, Wy - 2)
eval arrow(Rx + Rw - 60, Wy - 2, Rx + Rw - 60, ny + 54)
eval text_at(Rx + 72, Wy - 12, "wait full[s]", "left", font_size - 2, c_C_dark)
eval text_at(Rx + Rw - 72, Wy - 12, "arrive empty[s]", "right", font_size - 2, c_B_dark)

# --- the timeline ---
Ty = Wy + 134
eval textl(20, Ty - 16, "The next k-tile's wgmmas are issued before the last ones end: the tensor cores need not wait between k-tiles.")
Tx = 20; Tw = 960; LEAD = STAGES - 1; IDLE = 0
load scripts."/timeline.gp"

eval finish
