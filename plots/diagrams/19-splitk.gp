# 19-splitk.gp: rung 19, split-K. Reads TSM, TSN, TSK, WM, SPLITS and ATOMIC, and draws
# them at the chapter's example shape, 128 x 128 x 32768: K cut into slices of whole
# tiles, one partial tile of C per slice and tile, and the two ways of adding them.
canvas_w = 1000
canvas_h = 520
load scripts."/common.gp"

M = 128; N = 128; K = 32768  # the chapter's example: a small C, a long K
tiles_m = (M + TSM - 1) / TSM
tiles_n = (N + TSN - 1) / TSN
ktiles = (K + TSK - 1) / TSK
per = (ktiles + SPLITS - 1) / SPLITS      # tiles per slice (as slice_tiles in the kernel)
per = per > 0 ? per : 1
slices = (ktiles + per - 1) / per
eval heading(20, 32, "Rung 19: split-K, work-groups share the K loop")
eval text_at(20, 56, sprintf("TSM = %d, TSN = %d, TSK = %d, WM = %d, SPLITS = %d, ATOMIC = %d;   drawn at M x N x K = %d x %d x %d", TSM, TSN, TSK, WM, SPLITS, ATOMIC, M, N, K), "left", font_size, c_muted)

# --- K cut into slices: all of them when few, else the first four and the last two ---
shown = slices <= 8 ? slices : 6
Kx = 40; Ky = 110; Kw = 920; Kh = 30
gap = slices <= 8 ? 0 : 60              # room for the dots
sw = (Kw - gap) / (1.0 * shown)
slice_at(i) = (slices <= 8 || i < 4) ? i : slices - (shown - i)
x_at(i) = Kx + i*sw + ((slices > 8 && i >= 4) ? gap : 0)
eval textl(Kx, Ky - 14, sprintf("K = %d: %d tiles of TSK = %d, cut into %d slices of %d tiles (%d deep)", K, ktiles, TSK, slices, per, per * TSK))
do for [i=0:shown-1] {
    eval box(x_at(i) + 4, Ky, x_at(i) + sw - 4, Ky + Kh, "#d9d9d9")
    eval text(x_at(i) + sw/2, Ky + Kh/2 + 6, sprintf("slice %d", slice_at(i)))
}
if (slices > 8) { eval text(Kx + 4*sw + gap/2, Ky + Kh/2 + 6, "...") }

# --- one partial tile of C per slice: tiles_m x tiles_n work-groups each ---
pw = 60.0 / (tiles_m > tiles_n ? tiles_m : tiles_n)
Py = Ky + Kh + 40
do for [i=0:shown-1] {
    cx = x_at(i) + sw/2 - tiles_n*pw/2
    eval box(cx, Py, cx + tiles_n*pw, Py + tiles_m*pw, c_C)
    eval grid(cx, Py, cx + tiles_n*pw, Py + tiles_m*pw, tiles_n, tiles_m, c_C_dark)
    eval arrow(x_at(i) + sw/2, Ky + Kh + 2, x_at(i) + sw/2, Py - 2)
    eval text(x_at(i) + sw/2, Py + tiles_m*pw + 20, sprintf("P%d", slice_at(i)))
}
eval textl(Kx, Py + tiles_m*pw + 50, sprintf("Each slice's work-groups compute a partial tile of C over that slice only: %d tiles x %d slices = %d work-groups", tiles_m * tiles_n, slices, tiles_m * tiles_n * slices))
eval textl(Kx, Py + tiles_m*pw + 72, sprintf("(one slice would give %d: too few to fill a GPU). Then the %d partials of each element must be added:", tiles_m * tiles_n, slices))

# --- the two ways of adding them ---
Ry = Py + tiles_m*pw + 100; Rw = 440; Rh = 150
do for [j=0:1] {
    rx = Kx + j*(Rw + 40)
    eval box(rx, Ry, rx + Rw, Ry + Rh, j == ATOMIC ? c_local : "#ffffff")
    if (j == ATOMIC) { eval frame(rx, Ry, rx + Rw, Ry + Rh, c_local_dark, 3) }
}
eval textl(Kx + 14, Ry + 26, sprintf("ATOMIC = 0: a second kernel%s", ATOMIC == 0 ? " (the default)" : ""))
eval textl(Kx + 14, Ry + 56, sprintf("gemm writes P0 ... P%d into the workspace W,", slices - 1))
eval textl(Kx + 14, Ry + 78, sprintf("%d matrices of M x N; then reduce adds them", slices))
eval textl(Kx + 14, Ry + 100, "in slice order: C = alpha (P0 + P1 + ...) + beta C.")
eval text_at(Kx + 14, Ry + 130, "The same bits on every run.", "left", font_size, c_C_dark)
rx = Kx + Rw + 40
eval textl(rx + 14, Ry + 26, sprintf("ATOMIC = 1: atomic additions%s", ATOMIC == 1 ? " (the default)" : ""))
eval textl(rx + 14, Ry + 56, "scale_c makes C = beta C; then every work-group")
eval textl(rx + 14, Ry + 78, "adds alpha P into C with atomicAdd, in whatever")
eval textl(rx + 14, Ry + 100, "order the work-groups finish. No workspace.")
eval text_at(rx + 14, Ry + 130, "The last bits may differ from run to run.", "left", font_size, c_B_dark)

eval finish
