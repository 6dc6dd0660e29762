# 05-transpose.gp: rung 5, transposed input and rectangular tiles. Reads TSM, TSN, TSK
# (the tiles), WIDTH (vector width) and WPTN (columns of C per work-item). Left: A and the
# transposed B in global memory with their tiles; middle: the two tiles, loaded alike as
# vectors along m and n; right: the work-group's tile of C and two work-items' shares.
canvas_w = 1000
canvas_h = 640
load scripts."/common.gp"

RTSM = TSM / WIDTH           # work-items along M (one vector of rows each)
RTSN = TSN / WPTN            # work-items along N
eval heading(20, 32, "Rung 5: transposed input and rectangular tiles")
eval text_at(20, 56, sprintf("TSM = %d, TSN = %d, TSK = %d, WIDTH = %d, WPTN = %d", TSM, TSN, TSK, WIDTH, WPTN), "left", font_size, c_muted)

# --- global memory: A (M x K) and B^T (N x K), 2 tiles tall and 6 deep, tile t dark ---
g = 24.0 / TSK               # pixels per element along k in the overview
h = 96.0 / TSM               # ... and along m or n
t = 2
Ax = 40; Ay = 124; Bx = 220; By = 124
do for [i=0:5] {
    eval box(Ax + i*TSK*g, Ay, Ax + (i+1)*TSK*g, Ay + TSM*h, i == t ? c_A_dark : c_A_light)
    eval box(Bx + i*TSK*g, By, Bx + (i+1)*TSK*g, By + TSN*h, i == t ? c_B_dark : c_B_light)
}
eval frame(Ax, Ay, Ax + 6*TSK*g, Ay + 2*TSM*h, c_edge, 1)
eval frame(Bx, By, Bx + 6*TSK*g, By + 2*TSN*h, c_edge, 1)
eval text(Ax + 3*TSK*g, Ay - 14, "A   (M x K)")
eval text(Bx + 3*TSK*g, By - 14, "B^T   (N x K)")
eval note(20, 84, "in global memory")
eval note(Ax - 10, Ay + 2*TSM*h + 26, "A helper kernel transposes B once (timed with the rung):")
eval note(Ax - 10, Ay + 2*TSM*h + 46, "B^T is contiguous along n, as A is along m.")

# --- the tiles of one step, vectors of WIDTH marked along m and n ---
f = 192.0 / TSM              # pixels per element in the zoom
Zax = 440; Zbx = 520; Zy = 124
eval box(Zax, Zy, Zax + TSK*f, Zy + TSM*f, c_A)
eval box(Zbx, Zy, Zbx + TSK*f, Zy + TSN*f, c_B)
eval grid(Zax, Zy, Zax + TSK*f, Zy + TSM*f, 1, TSM / WIDTH, c_A_dark)
eval grid(Zbx, Zy, Zbx + TSK*f, Zy + TSN*f, 1, TSN / WIDTH, c_B_dark)
eval grid(Zax, Zy, Zax + TSK*f, Zy + TSM*f, TSK, 1, c_A_light)
eval grid(Zbx, Zy, Zbx + TSK*f, Zy + TSN*f, TSK, 1, c_B_light)
eval small(Zax + TSK*f/2, Zy - 10, sprintf("%d x %d", TSM, TSK))
eval small(Zbx + TSK*f/2, Zy - 10, sprintf("%d x %d", TSN, TSK))
eval text(Zax - 14, Zy + TSM*f/2, "m")
eval text(Zbx + TSK*f + 14, Zy + TSN*f/2, "n")
eval text((Zax + Zbx + TSK*f)/2, Zy + TSM*f + 22, "k")
eval text_at((Zax + Zbx + TSK*f)/2, Zy + TSM*f + 50, "tile t of A and of B^T (dark):", "center", font_size - 1, c_local_dark)
eval text_at((Zax + Zbx + TSK*f)/2, Zy + TSM*f + 70, sprintf("vectors of WIDTH = %d along m or n", WIDTH), "center", font_size - 1, c_local_dark)

# --- the work-group's tile of C, and its first 2 WIDTH rows zoomed: work-items (0, 0), (1, 0) ---
Cx = 700; Cy = 124
eval box(Cx, Cy, Cx + TSN*f, Cy + TSM*f, c_C_light)
eval hbox(Cx, Cy, Cx + TSN*f, Cy + 2*WIDTH*f, c_C)
eval text(Cx + TSN*f/2, Cy - 14, sprintf("tile of C: %d x %d", TSM, TSN))
q = 3.5                      # pixels per column in the zoomed strip
Sx = Zax; Sy = 410; Sh = 2*WIDTH*8
eval box(Sx, Sy, Sx + TSN*q, Sy + Sh, c_C)
eval grid(Sx, Sy, Sx + TSN*q, Sy + Sh, TSN, 2*WIDTH, c_C_light)
do for [wn=0:WPTN-1] {
    n = wn * RTSN
    eval hcell(Sx + n*q, Sy, Sx + (n+1)*q, Sy + Sh/2, c_hi)
    eval hcell(Sx + n*q, Sy + Sh/2, Sx + (n+1)*q, Sy + Sh, c_hi2)
}
eval text_at(Sx, Sy + Sh + 22, sprintf("work-item (0, 0): WIDTH x WPTN = %d x %d, columns RTSN = %d apart", WIDTH, WPTN, RTSN), "left", font_size - 1, c_hi)
eval text_at(Sx, Sy + Sh + 44, sprintf("work-item (1, 0): the next %d rows", WIDTH), "left", font_size - 1, c_hi2)
eval text_at(Sx - 12, Sy + Sh/2 + 5, sprintf("rows 0-%d of the tile of C (dark green):", 2*WIDTH - 1), "right", font_size - 1, c_text)

y0 = 552
eval textl(30, y0, "Both tiles are loaded by the same code, as a flat list of vectors: consecutive work-items take")
eval textl(30, y0 + 22, sprintf("consecutive vectors (coalesced), each every %d-th one. In local memory: Asub[k][m], Bsub[k][n].", RTSM * RTSN))
eval textl(30, y0 + 44, sprintf("The tile is rectangular and shallow: %d x %d of C per step of TSK = %d, from %d KiB of local memory;", TSM, TSN, TSK, (TSM + TSN) * TSK * 4 / 1024))
eval textl(30, y0 + 66, sprintf("global traffic 2 (1/TSM + 1/TSN) = %.3f bytes per flop. Work-group: TSM/WIDTH x TSN/WPTN = %d x %d.", 2.0 / TSM + 2.0 / TSN, RTSM, RTSN))

eval finish
