# 06-regblock.gp: rung 6, 2D register blocking. Reads TSM, TSN, TSK, WIDTH, WPTM, WPTN.
# Left: the work-group's tile of C and the WPTM x WPTN elements of two work-items, with
# row k of each tile in local memory along its edges. Right: one step k as an outer
# product of the fragments in registers.
canvas_w = 1000
canvas_h = 620
load scripts."/common.gp"

RTSM = TSM / WPTM            # work-items along M
RTSN = TSN / WPTN            # work-items along N
WPTMV = WPTM / WIDTH         # vectors of rows per work-item
eval heading(20, 32, "Rung 6: 2D register blocking")
eval text_at(20, 56, sprintf("TSM = %d, TSN = %d, TSK = %d, WIDTH = %d, WPTM = %d, WPTN = %d", TSM, TSN, TSK, WIDTH, WPTM, WPTN), "left", font_size, c_muted)

# --- the tile of C, with row k of Bsub above it and row k of Asub beside it ---
f = 320.0 / TSM              # pixels per element (rows)
e = 320.0 / TSN              # ... (columns)
Cx = 80; Cy = 130
eval box(Cx, Cy, Cx + TSN*e, Cy + TSM*f, c_C_light)
eval box(Cx, Cy - 26, Cx + TSN*e, Cy - 14, c_B)
eval box(Cx - 26, Cy, Cx - 14, Cy + TSM*f, c_A)
do for [wm=0:WPTMV-1] {
    m = WIDTH * (wm * RTSM)                 # work-item (0, 0)'s vectors of rows
    eval hcell(Cx - 26, Cy + m*f, Cx - 14, Cy + (m + WIDTH)*f, c_hi)
    do for [wn=0:WPTN-1] {
        n = wn * RTSN
        eval hcell(Cx + n*e, Cy + m*f, Cx + (n+1)*e, Cy + (m + WIDTH)*f, c_hi)
        eval hcell(Cx + n*e, Cy + (m + WIDTH)*f, Cx + (n+1)*e, Cy + (m + 2*WIDTH)*f, c_hi2)
    }
}
do for [wn=0:WPTN-1] {
    n = wn * RTSN
    eval hcell(Cx + n*e, Cy - 26, Cx + (n+1)*e, Cy - 14, c_hi)
}
eval text_at(Cx + TSN*e/2, Cy - 34, "row k of Bsub", "center", font_size - 1, c_text)
eval vtext(Cx - 40, Cy + TSM*f/2, "row k of Asub")
eval text(Cx + TSN*e/2, Cy + TSM*f + 24, sprintf("the work-group's tile of C: %d x %d", TSM, TSN))
eval text_at(Cx + TSN*e/2, Cy + TSM*f + 46, sprintf("work-group: TSM/WPTM x TSN/WPTN = %d x %d work-items", RTSM, RTSN), "center", font_size - 1, c_muted)

# --- step k: Areg x Breg into the accumulators ---
u = 24                       # pixels per register
Ox = 640; Oy = 210
eval box(Ox, Oy, Ox + WPTN*u, Oy + WPTM*u, c_C_light)
eval grid(Ox, Oy, Ox + WPTN*u, Oy + WPTM*u, WPTN, WPTM, c_C)
eval box(Ox, Oy - u - 10, Ox + WPTN*u, Oy - 10, c_B)
eval grid(Ox, Oy - u - 10, Ox + WPTN*u, Oy - 10, WPTN, 1, "#ffffff")
eval box(Ox - u - 10, Oy, Ox - 10, Oy + WPTM*u, c_A)
eval grid(Ox - u - 10, Oy, Ox - 10, Oy + WPTM*u, 1, WPTM, "#ffffff")
do for [v=1:WPTMV-1] { eval line(Ox - u - 10, Oy + v*WIDTH*u, Ox - 10, Oy + v*WIDTH*u, c_A_dark, 2) }
eval text(Ox + WPTN*u/2, Oy - u - 22, sprintf("Breg: WPTN = %d floats  (%d reads)", WPTN, WPTN))
eval textr(Ox - u - 20, Oy + WPTM*u/2 - 10, sprintf("Areg: WPTM = %d floats,", WPTM))
eval textr(Ox - u - 20, Oy + WPTM*u/2 + 12, sprintf("%d vectors of %d", WPTMV, WIDTH))
eval text_at(Ox - u - 20, Oy + WPTM*u/2 + 32, sprintf("(%d reads)", WPTMV), "right", font_size - 1, c_muted)
eval text(Ox + WPTN*u/2, Oy + WPTM*u + 24, sprintf("acc: WPTM x WPTN = %d", WPTM * WPTN))
eval text(Ox + WPTN*u/2, Oy + WPTM*u + 46, "accumulators in registers")
eval text_at(Ox - 150, Oy - 90, "One step k of work-item (0, 0), in registers:", "left", font_size, c_hi)

y0 = 540
eval textl(30, y0, sprintf("Per step k: WPTM/WIDTH + WPTN = %d reads of local memory for WPTM x WPTN = %d multiply-adds.", WPTMV + WPTN, WPTM * WPTN))
eval textl(30, y0 + 22, sprintf("A work-item's rows are vectors RTSM x WIDTH = %d rows apart and its columns RTSN = %d apart (red);", RTSM * WIDTH, RTSN))
eval textl(30, y0 + 44, "its neighbour's are next to them (purple), so a warp reads neighbouring words of local memory.")

eval finish
