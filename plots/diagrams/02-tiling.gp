# 02-tiling.gp: rung 2, tiling in local memory. Reads TS (tile edge; the work-group is
# TS x TS work-items). Left: the matrices in global memory, the work-group's tile of C
# and the tiles of A and B it loads at step t. Right: those tiles in local memory, and
# the row and column one work-item multiplies.
canvas_w = 1000
canvas_h = 560
load scripts."/common.gp"

eval heading(20, 32, sprintf("Rung 2: tiling in local memory   (TS = %d)", TS))

# --- global memory: 4 x 4 tiles of each matrix; the work-group's tile is (1, 2) ---
p = 34                       # pixels per tile
ti = 1; tj = 2; t = 1        # tile row and column of C, and the step along K
Bx = 200; By = 80; Ax = 40; Ay = 240; Cx = 200; Cy = 240
do for [i=0:3] {
    eval box(Ax + i*p, Ay + ti*p, Ax + (i+1)*p, Ay + (ti+1)*p, i == t ? c_A_dark : c_A_light)
    eval box(Bx + tj*p, By + i*p, Bx + (tj+1)*p, By + (i+1)*p, i == t ? c_B_dark : c_B_light)
}
eval frame(Ax, Ay, Ax + 4*p, Ay + 4*p, c_edge, 1)
eval frame(Bx, By, Bx + 4*p, By + 4*p, c_edge, 1)
eval frame(Cx, Cy, Cx + 4*p, Cy + 4*p, c_edge, 1)
eval box(Cx + tj*p, Cy + ti*p, Cx + (tj+1)*p, Cy + (ti+1)*p, c_C_dark)
eval text(Bx + 2*p, By - 12, "B   (K x N)")
eval text(Ax + 2*p, Ay - 12, "A   (M x K)")
eval text(Cx + 2*p, Cy + 4*p + 22, "C   (M x N)")
eval note(30, 66, "global memory")
eval note(Ax - 10, Ay + 4*p + 52, "green: the work-group's tile of C; dark: tile t of A and of B")

# --- local memory: the two tiles, cell by cell, and the tile of C ---
z = 160.0 / TS               # pixels per element
s = TS * z
Zbx = 640; Zby = 80; Zax = 460; Zay = 260; Zcx = 640; Zcy = 260
row = TS / 4; col = (5 * TS) / 8     # the work-item the picture follows
eval box(Zax, Zay, Zax + s, Zay + s, c_A)
eval box(Zbx, Zby, Zbx + s, Zby + s, c_B)
eval box(Zcx, Zcy, Zcx + s, Zcy + s, c_C)
eval grid(Zax, Zay, Zax + s, Zay + s, TS, TS, c_grid)
eval grid(Zbx, Zby, Zbx + s, Zby + s, TS, TS, c_grid)
eval grid(Zcx, Zcy, Zcx + s, Zcy + s, TS, TS, c_grid)
eval hcell(Zax, Zay + row*z, Zax + s, Zay + (row+1)*z, c_hi)
eval hcell(Zbx + col*z, Zby, Zbx + (col+1)*z, Zby + s, c_hi)
eval hcell(Zcx + col*z, Zcy + row*z, Zcx + (col+1)*z, Zcy + (row+1)*z, c_hi)
eval dashed(Zax + s, Zay + (row+0.5)*z, Zcx + col*z, Zcy + (row+0.5)*z, c_hi)
eval dashed(Zbx + (col+0.5)*z, Zby + s, Zbx + (col+0.5)*z, Zcy + row*z, c_hi)
eval text(Zbx + s/2, Zby - 12, "Bsub: tile t of B")
eval text(Zax + s/2, Zay - 12, "Asub: tile t of A")
eval text(Zcx + s/2, Zcy + s + 22, "the tile of C")
eval text_at(Zbx + s + 14, Zby + s/2 - 10, sprintf("%d x %d floats", TS, TS), "left", font_size - 1, c_local_dark)
eval text_at(Zbx + s + 14, Zby + s/2 + 10, "in local memory", "left", font_size - 1, c_local_dark)
eval text_at(Zcx + s + 14, Zcy + (row+0.5)*z - 5, "work-item", "left", font_size - 1, c_hi)
eval text_at(Zcx + s + 14, Zcy + (row+0.5)*z + 15, sprintf("(row %d, col %d)", row, col), "left", font_size - 1, c_hi)
eval arrow(Ax + (t+1)*p + 4, Ay + (ti+0.5)*p, Zax - 8, Zay + s/2)
eval arrow(Bx + (tj+1)*p + 4, By + (t+0.5)*p, Zbx - 8, Zby + s/2)

# --- what happens, in order ---
y0 = 474
eval textl(30, y0, sprintf("A work-group of TS x TS = %d work-items owns a tile of C, one element each. At step t:", TS * TS))
eval textl(30, y0 + 22, "1. each work-item copies one element of A and one of B into local memory; barrier;")
eval textl(30, y0 + 44, "2. work-item (row, col) adds Asub[k][row] * Bsub[col][k] for k = 0 .. TS-1 (red); barrier.")
eval textl(30, y0 + 66, sprintf("Each value read from global memory now serves TS = %d work-items instead of one.", TS))

eval finish
