# timeline.gp: a schematic timeline of a Hopper rung's k-tiles (not to scale, not
# measured), loaded by 21-wgmma.gp and 23-specialized.gp after common.gp. Not a diagram of
# its own.
#
# Reads what the caller sets before `load`:
#   Tx, Ty, Tw   where it goes: left, top, width in pixels
#   LEAD         how many k-tiles ahead the copies run once the loop is going
#   IDLE         1: the tensor cores wait between k-tiles (the drain, the block barrier
#                and the next tile's A loads); 0: the next k-tile's wgmmas are queued
#                before the last ones end
# Two lanes: the copy engine's k-tiles and the tensor cores' k-tiles, numbered alike.

shown_tiles = 7
busy = 74.0                                # pixels of wgmmas per k-tile
idle = IDLE ? 30.0 : 0.0
lane_h = 24
label_w = 150
copy_w = 0.6 * busy
t0 = Tx + label_w + LEAD * copy_w + 10   # the first k-tile waits for its copies
tile_start(j) = t0 + j * (busy + idle)
eval textl(Tx, Ty + lane_h/2 + 5, "copies (TMA)")
eval textl(Tx, Ty + lane_h + 10 + lane_h/2 + 5, "tensor cores")
do for [j=0:shown_tiles-1] {
    xs = tile_start(j)
    if (xs + busy <= Tx + Tw) {
        eval box(xs, Ty + lane_h + 10, xs + busy, Ty + 2*lane_h + 10, c_C)
        eval small(xs + busy/2, Ty + lane_h + 10 + lane_h/2 + 5, sprintf("k-tile %d", j))
        if (IDLE && xs + busy + idle <= Tx + Tw) {
            eval cell(xs + busy, Ty + lane_h + 10, xs + busy + idle, Ty + 2*lane_h + 10, c_off)
        }
    }
    # k-tile j's copies are issued when the step LEAD k-tiles before it begins (the first
    # LEAD one after the other before the loop), and land before the step that needs them.
    cs = j < LEAD ? Tx + label_w + j * copy_w : tile_start(j - LEAD)
    ce = cs + copy_w
    if (ce <= Tx + Tw && j < shown_tiles) {
        eval box(cs, Ty, ce, Ty + lane_h, c_A_light)
        eval small((cs + ce)/2, Ty + lane_h/2 + 5, sprintf("%d", j))
    }
}
eval line(Tx + label_w - 6, Ty + 2*lane_h + 18, Tx + Tw, Ty + 2*lane_h + 18, c_muted, 1)
eval text_at(Tx + Tw, Ty + 2*lane_h + 34, "time (schematic)", "right", font_size - 3, c_muted)
