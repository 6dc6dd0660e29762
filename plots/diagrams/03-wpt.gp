# 03-wpt.gp: rung 3, more work per thread. Reads TS (tile edge) and WPT (elements of C per
# work-item). The tiles in local memory as in rung 2's picture; one work-item now owns WPT
# elements of a row of C, RTS = TS/WPT columns apart, and reuses one value of A for all.
canvas_w = 1000
canvas_h = 600
load scripts."/common.gp"

RTS = TS / WPT               # work-items along the columns of a tile (as in the kernel)
eval heading(20, 32, sprintf("Rung 3: more work per thread   (TS = %d, WPT = %d)", TS, WPT))

z = 224.0 / TS               # pixels per element
s = TS * z
Bx = 300; By = 74; Ax = 60; Ay = 320; Cx = 300; Cy = 320
row = TS / 4; k = TS / 2     # the work-items' row, and one step of the inner loop
eval box(Ax, Ay, Ax + s, Ay + s, c_A)
eval box(Bx, By, Bx + s, By + s, c_B)
eval box(Cx, Cy, Cx + s, Cy + s, c_C_light)
eval grid(Ax, Ay, Ax + s, Ay + s, TS, TS, c_grid)
eval grid(Bx, By, Bx + s, By + s, TS, TS, c_grid)
eval grid(Cx, Cy, Cx + s, Cy + s, TS, TS, c_grid)

# The value of A at step k, used by every one of the work-item's WPT columns.
eval hcell(Ax + k*z, Ay + row*z, Ax + (k+1)*z, Ay + (row+1)*z, c_hi)
eval dashed(Ax + (k+1)*z, Ay + (row+0.5)*z, Cx, Cy + (row+0.5)*z, c_hi)
do for [w=0:WPT-1] {
    c0 = w * RTS             # work-item col 0's columns
    eval hcell(Bx + c0*z, By + k*z, Bx + (c0+1)*z, By + (k+1)*z, c_hi)
    eval dashed(Bx + (c0+0.5)*z, By + (k+1)*z, Bx + (c0+0.5)*z, Cy, c_hi)
    eval hcell(Cx + c0*z, Cy + row*z, Cx + (c0+1)*z, Cy + (row+1)*z, c_hi)
    eval hcell(Cx + (c0+1)*z, Cy + row*z, Cx + (c0+2)*z, Cy + (row+1)*z, c_hi2)
}
eval text(Bx + s/2, By - 10, "Bsub (local memory)")
eval text(Ax + s/2, Ay - 12, "Asub (local memory)")
eval text(Cx + s/2, Cy + s + 22, "the work-group's tile of C")
eval text_at(Ax - 8, Ay + (row+0.5)*z + 5, sprintf("row %d", row), "right", font_size - 1, c_hi)
eval text_at(Ax + (k+0.5)*z, Ay + s + 22, sprintf("k = %d", k), "center", font_size - 1, c_hi)
eval text_at(Bx - 8, By + (k+0.5)*z + 5, sprintf("k = %d", k), "right", font_size - 1, c_hi)

# What it means, at the right.
Lx = Cx + s + 40
eval textl(Lx, 100, "The work-group shrinks to")
eval textl(Lx, 122, sprintf("TS x TS/WPT = %d x %d work-items.", TS, RTS))
eval textl(Lx, 156, sprintf("Each owns WPT = %d elements of a row of C,", WPT))
eval textl(Lx, 178, sprintf("RTS = TS/WPT = %d columns apart.", RTS))
eval text_at(Lx, By + (k+0.5)*z + 30, "At step k, a = Asub[k][row] is read once", "left", font_size, c_hi)
eval text_at(Lx, By + (k+0.5)*z + 52, sprintf("and used WPT = %d times, with the WPT", WPT), "left", font_size, c_hi)
eval text_at(Lx, By + (k+0.5)*z + 74, "values of B at depth k.", "left", font_size, c_hi)
eval text_at(Lx, Cy + (row+0.5)*z - 6, sprintf("work-item (row %d, col 0): columns 0, %d, %d ...", row, RTS, 2*RTS), "left", font_size - 1, c_hi)
eval text_at(Lx, Cy + (row+0.5)*z + 16, sprintf("work-item (row %d, col 1): columns 1, %d, %d ...", row, RTS + 1, 2*RTS + 1), "left", font_size - 1, c_hi2)
eval textl(Lx, Cy + s - 30, "Local-memory reads per multiply-add:")
eval textl(Lx, Cy + s - 8, sprintf("1 + 1/WPT = %.4g   (rung 2: 2)", 1 + 1.0 / WPT))

eval finish
