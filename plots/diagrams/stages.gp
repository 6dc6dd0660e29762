# stages.gp: the ring of shared-memory stages of the Hopper rungs (21-24), loaded by
# 21-wgmma.gp and 23-specialized.gp after common.gp. Not a diagram of its own (its name
# does not start with a rung number, so tools/draw-diagrams.sh does not run it).
#
# Reads the rung's TSM, TSN and STAGES, and what the caller sets before `load`:
#   Rx, Ry, Rw   where the ring goes: left, top, width in pixels
#   EMPTY        1: each stage also has an empty[s] barrier (rungs 23-24); 0: full[s] only
# Sets Rh, the height it took, and stage_x(s) / stage_w, for the caller's arrows.
# Each stage holds one 32-deep k-tile: A's TSM x 32 tile as TSM/32 TMA boxes of 32 x 32
# (m down, k across) and B's tile as one box, drawn k down, n across, as it lands: TSN
# rows of 32 k, K-major, the layout the wgmma descriptor reads.

stage_gap = 14
stage_w = (Rw - (STAGES - 1) * stage_gap) / (1.0 * STAGES)
stage_x(s) = Rx + s * (stage_w + stage_gap)
sq = (stage_w - 30) / (32.0 + TSN)        # pixels per element inside a stage
sq = sq < 1.2 ? sq : 1.2
a_h = TSM * sq                            # A's tile: 32 across, TSM down
b_h = 32 * sq                             # B's tile: TSN across, 32 down
bar_h = 18
Rh = 26 + a_h + 12 + bar_h + (EMPTY ? bar_h + 6 : 0)

do for [s=0:STAGES-1] {
    x0 = stage_x(s)
    eval box(x0, Ry, x0 + stage_w, Ry + 26 + a_h + 8, c_local)
    eval text_at(x0 + 8, Ry + 18, sprintf("stage %d", s), "left", font_size - 2, c_local_dark)
    ax = x0 + 10; ay = Ry + 26
    eval box(ax, ay, ax + 32*sq, ay + a_h, c_A)
    eval grid(ax, ay, ax + 32*sq, ay + a_h, 1, TSM / 32, c_A_dark)
    bx = ax + 32*sq + 10
    eval box(bx, ay, bx + TSN*sq, ay + b_h, c_B)
    eval smalll(bx, ay + b_h + 16, sprintf("B: %d (n) x 32 (k)", TSN))
    eval smalll(bx, ay + b_h + 34, sprintf("A: %d (m) x 32 (k),", TSM))
    eval smalll(bx, ay + b_h + 50, sprintf("%d boxes of 32 x 32", TSM / 32))
    by = Ry + 26 + a_h + 12
    eval box(x0 + 10, by, x0 + stage_w - 10, by + bar_h, c_C_light)
    eval text_at(x0 + stage_w/2, by + 13, sprintf("full[%d]: copies landed", s), "center", font_size - 4, c_C_dark)
    if (EMPTY) {
        eval box(x0 + 10, by + bar_h + 6, x0 + stage_w - 10, by + 2*bar_h + 6, c_B_light)
        eval text_at(x0 + stage_w/2, by + bar_h + 19, sprintf("empty[%d]: consumers done", s), "center", font_size - 4, c_B_dark)
    }
}
