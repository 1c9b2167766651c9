"""Issue 3, end to end: arranging the gallery by dragging (one cell or a selection), with room opening at the
insertion point, edge autoscroll, cancel, keyboard moves, undo/redo, and the order kept in the library.

The real app under Xvfb with a state of twelve served images of distinct colours and aspect ratios (forty for
autoscroll); real pointer drags with xdotool (press, small steps past GTK's threshold, the way over, a rest,
release); the cells found over AT-SPI; the order read from the library (`--print-state`); screenshots prove what the cells show."""
import json
import os
import time

import harness
from drag_helpers import (PointerDrag, assert_toast_undo_spent, by_name, cell_names, check_colours, click,
                          click_node, drag, launch_long_gallery, launch_gallery, moved, rows_of, saved_names,
                          screen_problems, toast_text, visible_parts, toast_undo_button, wait_cursor,
                          wait_order, wait_saved, wait_selected, wait_toast)

NAMES = [spec[0] for spec in harness.DISTINCT_IMAGES]


def left_half(cell):
    return (cell.x + cell.width // 4, cell.y + cell.height // 2)


def right_half(cell):
    return (cell.x + cell.width * 3 // 4, cell.y + cell.height // 2)


def row_of(cells, name):
    for row in rows_of(cells):
        if name in cell_names(row):
            return row
    raise AssertionError("%s is not among the cells:\n%s" % (name, harness.format_cells(cells)))


def room_after(cells, name, gallery_box, min_width):
    """The empty slot the drag opened right after the cell `name` (mid-drag cells): after it in its row, or, when
    it ends its row, at the start of the next row. Returns the room's box (screen) or None."""
    rows = rows_of(cells)
    gx, gy, gw, gh = gallery_box
    for r, row in enumerate(rows):
        names = cell_names(row)
        if name not in names:
            continue
        i = names.index(name)
        cell = row[i]
        right = row[i + 1].x if i + 1 < len(row) else gx + gw
        if right - (cell.x + cell.width) - 16 >= min_width:
            return (cell.x + cell.width + 8, cell.y, right - (cell.x + cell.width) - 16, cell.height)
        if i + 1 == len(row) and r + 1 < len(rows):
            first = rows[r + 1][0]
            if first.x - gx - 16 >= min_width:
                return (gx + 8, first.y, first.x - gx - 16, first.height)
        return None
    return None


def image_pixels(shot, box, colours, tol=30):
    """How many pixels of box (screen) are close to each image colour."""
    x, y, w, h = box
    region = shot.crop((x, y, x + w, y + h))
    counts = dict.fromkeys(colours, 0)
    for n, pixel in region.getcolors(w * h) or []:
        for name, rgb in colours.items():
            if harness.colour_close(pixel, rgb, tol):
                counts[name] += n
    return counts


def overlaps(a, b):
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def is_dimmed(shot, cell, rgb):
    """The cell shows a faded version of its colour: not the colour itself, lighter, and the same hue."""
    got, _ = harness.dominant_colour(shot, cell.box)
    lighter = sum(got) > sum(rgb) + 60
    return not harness.colour_close(got, rgb, 30) and lighter, got


def wait_file_stable(app, original, files, seconds=0.8):
    """Nothing is written for `seconds` (saving happens within ~100 ms of a change): the library is `original`, and
    the library folder's files are `files` (`app.library_files()`)."""
    time.sleep(seconds)
    assert app.state_bytes() == original, "the library changed:\n%s" % app.state_bytes().decode()
    assert app.library_files() == files, "the library folder was written again (same library)"


def test_drag_one_cell_forward_and_one_backward(make_app, http_server, desktop):
    app, colours = launch_gallery(make_app, http_server)
    cells = app.wait_settled(12)
    assert cell_names(cells) == NAMES
    gallery_box = app.gallery().extents()
    named = by_name(cells)

    # forward: green onto the right half of purple, i.e. right after purple
    green, purple = named["green"], named["purple"]
    with PointerDrag(desktop) as d:
        d.press(*green.center, direction=(1, 1))
        d.move(*right_half(purple), rest=0.1)
        # mid-drag: a move cursor, green dimmed in its place, room opening after purple (animated ~220 ms)
        assert wait_cursor(desktop, ("dnd-move",)) == "dnd-move"
        mid = app.wait_cells(lambda cs: room_after(cs, "purple", gallery_box, purple.height * 0.4) is not None, 5,
                             what="room to open after purple")
        time.sleep(0.4)
        shot = app.screenshot()
        room = room_after(app.cells(), "purple", gallery_box, purple.height * 0.4)
        assert room is not None, "the room closed while the pointer rested"
        others = {n: c for n, c in colours.items() if n != "green"}  # the drag image is green
        counts = image_pixels(shot, room, others)
        assert not any(counts.values()), "the room at %r shows images: %r" % (room, counts)
        mid_named = by_name(app.cells())
        dimmed, seen = is_dimmed(shot, mid_named["green"], colours["green"])
        assert dimmed, "the dragged green cell is not dimmed: %r" % (seen,)
        # the drag image (green's size, grabbed at its centre) hides the cells around the pointer
        px, py = desktop.pointer
        icon = (px - green.width // 2 - 10, py - green.height // 2 - 10, green.width + 20, green.height + 20)
        clear = [c for c in visible_parts(app.cells(), app.gallery().parent().extents())
                 if cell_names([c]) != ["green"] and not overlaps(c.box, icon)]
        assert len(clear) >= 6, "too few cells to check:\n" + harness.format_cells(clear)
        # the drag image under the pointer is a snapshot of green
        under_pointer = image_pixels(shot, icon, {"green": colours["green"]})["green"]
        assert under_pointer >= 0.4 * green.width * green.height, (
            "no green drag image under the pointer: %d green pixels around %r" % (under_pointer, desktop.pointer))
        problems = check_colours(shot, clear, colours)
        assert not problems, "mid-drag, with the room open:\n  " + "\n  ".join(problems)
        assert saved_names(app) == NAMES, "the library changed before the drop"
        shot.save(os.path.join(app.root, "mid-drag-room.png"))
        print("the room opening mid-drag: %s" % os.path.join(app.root, "mid-drag-room.png"))
        d.release()
    after_forward = moved(NAMES, ["green"], NAMES.index("purple"))
    assert after_forward.index("green") == after_forward.index("purple") + 1
    wait_saved(app, after_forward, what="the library with green after purple")
    wait_order(app, after_forward)
    wait_toast(app, "Image moved")
    assert mid  # the room was seen over AT-SPI too

    # backward: teal onto the left half of blue, i.e. right before blue
    named = by_name(app.cells())
    drag(desktop, named["teal"].center, left_half(named["blue"]))
    after_backward = moved(after_forward, ["teal"], after_forward.index("blue"))
    assert after_backward.index("teal") == after_backward.index("blue") - 1
    wait_saved(app, after_backward, what="the library with teal before blue")
    wait_order(app, after_backward)
    time.sleep(0.4)  # the cells slide to their new places (220 ms)
    shot = app.screenshot()
    problems = check_colours(shot, visible_parts(app.cells(), app.gallery().parent().extents()), colours)
    assert not problems, "after the two moves:\n  " + "\n  ".join(problems)

    # the toast's Undo takes the last move back
    wait_toast(app, "Image moved")
    undo = toast_undo_button(app)
    assert undo is not None, "no showing Undo button in the toast:\n" + app.dump_tree()
    click_node(desktop, undo)
    wait_saved(app, after_forward, what="the library after the toast's Undo")
    wait_order(app, after_forward)


def test_drag_a_sparse_selection_to_the_start_and_to_the_end(make_app, http_server, desktop):
    app, colours = launch_gallery(make_app, http_server)
    named = by_name(app.wait_settled(12))
    original = app.state_bytes()
    click(desktop, named["blue"].center)
    click(desktop, named["orange"].center, "ctrl")
    click(desktop, named["teal"].center, "ctrl")
    wait_selected(app, ["blue", "orange", "teal"])
    assert app.state_bytes() == original, "selecting changed the library"
    group = ["blue", "orange", "teal"]

    # to the start: grab orange (selected, so all three go), drop on red's left half
    with PointerDrag(desktop) as d:
        d.press(*named["orange"].center, direction=(-1, -1))
        d.move(*left_half(named["red"]), rest=0.5)
        shot = app.screenshot()
        mid = by_name(app.cells())
        for name in group:  # every dragged cell is dimmed in its place
            dimmed, seen = is_dimmed(shot, mid[name], colours[name])
            assert dimmed, "%s is not dimmed while the selection is dragged: %r" % (name, seen)
        d.release()
    at_start = moved(NAMES, group, 0)
    assert at_start[:3] == ["blue", "orange", "teal"]
    wait_saved(app, at_start, what="the library with blue, orange, teal first")
    wait_order(app, at_start)
    wait_toast(app, "3 images moved")
    time.sleep(0.4)
    problems = screen_problems(app, colours)
    assert not problems, "after the move to the start:\n  " + "\n  ".join(problems)

    # the selection is kept; to the end: grab teal, drop on the right half of the last cell
    cells = wait_selected(app, group)
    named = by_name(cells)
    last = cells[-1]
    assert cell_names([last]) == ["brown"]
    drag(desktop, named["teal"].center, right_half(last))
    at_end = moved(at_start, group, len(NAMES) - 3)
    assert at_end[-3:] == ["blue", "orange", "teal"]
    wait_saved(app, at_end, what="the library with blue, orange, teal last")
    wait_order(app, at_end)
    time.sleep(0.4)
    problems = screen_problems(app, colours)
    assert not problems, "after the move to the end:\n  " + "\n  ".join(problems)

    # a drag from a cell outside the selection takes just that cell (and selects it)
    named = by_name(wait_selected(app, group))
    drag(desktop, named["red"].center, right_half(named["green"]))
    alone = moved(at_end, ["red"], at_end.index("green"))
    assert alone[:2] == ["green", "red"] and alone[-3:] == group
    wait_saved(app, alone, what="the library with only red moved")
    wait_selected(app, ["red"])
    wait_order(app, alone)


def test_drop_beside_the_end_of_the_last_row_or_below_it_lands_last(make_app, http_server, desktop):
    app, colours = launch_gallery(make_app, http_server)
    cells = app.wait_settled(12)
    view = app.gallery().parent().extents()  # the viewport: the gallery's visible area

    # beside the last row, right of its last cell: magenta (a narrow one) goes last
    end = rows_of(cells)[-1][-1]
    assert end.x + end.width + 80 < view[0] + view[2], "the last row is full: %s" % end
    named = by_name(cells)
    drag(desktop, named["magenta"].center, (end.x + end.width + 50, end.y + end.height // 2))
    order = moved(NAMES, ["magenta"], len(NAMES) - 1)
    wait_saved(app, order, what="the library with magenta last")
    cells = wait_order(app, order)

    # below the last row, in the middle: green goes last
    last_row = rows_of(cells)[-1]
    bottom = max(c.y + c.height for c in last_row)
    assert view[1] + view[3] - bottom >= 30, "no empty area below the last row: %r, bottom %d" % (view, bottom)
    named = by_name(cells)
    drag(desktop, named["green"].center, (view[0] + view[2] // 2, bottom + 20))
    order = moved(order, ["green"], len(NAMES) - 1)
    wait_saved(app, order, what="the library with green last")
    wait_order(app, order)
    time.sleep(0.4)
    problems = screen_problems(app, colours)
    assert not problems, "after the moves to the end:\n  " + "\n  ".join(problems)


def test_drop_in_the_gap_between_rows_and_in_the_margin(make_app, http_server, desktop):
    app, colours = launch_gallery(make_app, http_server)
    cells = app.wait_settled(12)
    view = app.gallery().parent().extents()
    rows = rows_of(cells)
    assert len(rows) >= 3, "expected at least three rows:\n" + harness.format_cells(cells)

    # in the 8 px gap between the first two rows, under the right half of a first-row cell, nearer that row:
    # right after that cell
    above = rows[0][2]
    below_first = rows[1][0]
    gap_top = above.y + above.height
    assert below_first.y - gap_top >= 6, "no gap between the rows: %s / %s" % (above, below_first)
    mover = rows[1][1]
    drag(desktop, mover.center, (above.x + above.width * 3 // 4, gap_top + 2))
    names = NAMES
    order = moved(names, [cell_names([mover])[0]], names.index(cell_names([above])[0]) + 1)
    wait_saved(app, order, what="the library with %s right after %s" % (cell_names([mover])[0],
                                                                       cell_names([above])[0]))
    cells = wait_order(app, order)

    # in the left margin, beside the middle of a row: before that row's first cell
    rows = rows_of(cells)
    row = rows[1]
    first = row[0]
    assert first.x - view[0] >= 6, "no left margin: %s in %r" % (first, view)
    mover = rows[0][0]  # the first cell of the gallery goes to the start of the second row
    drag(desktop, mover.center, (view[0] + 2, first.y + first.height // 2))
    names = order
    order = moved(names, [cell_names([mover])[0]], names.index(cell_names([first])[0]) - 1)
    wait_saved(app, order, what="the library with %s right before %s" % (cell_names([mover])[0],
                                                                        cell_names([first])[0]))
    wait_order(app, order)
    time.sleep(0.4)
    problems = screen_problems(app, colours)
    assert not problems, "after the drops in the gap and the margin:\n  " + "\n  ".join(problems)


def test_autoscroll_at_the_bottom_edge_and_drop_in_a_row_that_was_off_screen(make_app, http_server, desktop):
    app, colours, names = launch_long_gallery(make_app, http_server)
    gallery = app.gallery()
    view = gallery.extents()  # the canvas is the view; the scroll bar says how far it is scrolled
    assert app.gallery_scrollbar().value("MaximumValue") > 600, "the gallery is not much taller than its view"
    visible_at_start = cell_names(app.wait_settled())
    assert visible_at_start and len(visible_at_start) < 30, visible_at_start
    red = by_name(app.cells())["red"]
    edge_y = view[1] + view[3]
    x = view[0] + view[2] // 2

    def scroll_offset():
        return app.scroll_offset()

    samples = []
    with PointerDrag(desktop) as d:
        d.press(*red.center, direction=(1, 1))
        d.move(x, view[1] + view[3] // 2, rest=0.2)
        assert scroll_offset() == 0, "the view scrolled with the pointer in the middle"
        # 48 px from the edge: slow
        d.move(x, edge_y - 48, rest=0)
        t0, o0 = time.monotonic(), scroll_offset()
        while time.monotonic() - t0 < 1.2:
            samples.append((time.monotonic(), scroll_offset(), 48))
            time.sleep(0.05)
        t1, o1 = time.monotonic(), scroll_offset()
        # 8 px from the edge: fast
        d.move(x, edge_y - 8, steps=5, rest=0)
        t2, o2 = time.monotonic(), scroll_offset()
        while time.monotonic() - t2 < 0.35:
            samples.append((time.monotonic(), scroll_offset(), 8))
            time.sleep(0.05)
        t3, o3 = time.monotonic(), scroll_offset()
        # hold still at the edge until the end of the gallery (the room follows the pointer)
        last = {"offset": None, "since": time.monotonic()}

        def at_the_end():
            offset = scroll_offset()
            samples.append((time.monotonic(), offset, 8))
            if offset != last["offset"]:
                last["offset"], last["since"] = offset, time.monotonic()
            return offset if time.monotonic() - last["since"] > 0.5 else None

        final_offset = harness.wait_until(at_the_end, 15, 0.05, "the autoscroll to reach the end")
        visible_at_drop = cell_names(app.cells())
        d.release()
    log = "\n  ".join("%.2f s: offset %d (pointer %d px from the edge)" % (t - t0, o, e) for t, o, e in samples)
    slow, fast = (o1 - o0) / (t1 - t0), (o3 - o2) / (t3 - t2)
    print("autoscroll: %.0f px/s 48 px from the edge, %.0f px/s 8 px from it:\n  %s" % (slow, fast, log))
    assert slow > 0, "no scrolling 48 px from the edge:\n  " + log
    assert fast > 3 * slow, "not faster nearer the edge (%.0f px/s at 48 px, %.0f px/s at 8 px):\n  %s" % (
        slow, fast, log)
    assert final_offset >= 600, "the view scrolled only %d px:\n  %s" % (final_offset, log)

    # red landed in a row that was off-screen when the drag started, and nothing else moved
    def landed(order):
        return "red" in order and order != names and [n for n in order if n != "red"] == names[1:]

    harness.wait_until(lambda: landed(saved_names(app)), 5, 0.1, "the library with red moved",
                       lambda: repr(saved_names(app)))
    order = saved_names(app)
    index = order.index("red")
    neighbours = order[index - 1:index] + order[index + 1:index + 2]
    assert neighbours and not set(neighbours) & set(visible_at_start), (
        "red landed beside %r, which were on screen when the drag started (%r)" % (neighbours, visible_at_start))
    assert set(neighbours) <= set(visible_at_drop), (
        "red landed beside %r, away from where it was dropped (on screen then: %r)" % (neighbours, visible_at_drop))
    # the scrolling stopped with the drag, and red is shown at its new place
    time.sleep(0.4)
    settled = scroll_offset()
    time.sleep(0.4)
    assert scroll_offset() == settled, "the view kept scrolling after the drop"
    # the toast over the bottom of the gallery goes; the rest of the gallery is scrolled into view
    wait_toast(app, "Image moved")
    dismiss = [b for b in app.find_all(lambda a: a.role == harness.ROLE.PUSH_BUTTON and a.name == "Dismiss"
                                       and a.has_state("SHOWING"))]
    assert dismiss, "no Dismiss button on the toast:\n" + app.dump_tree()
    bx, by, bw, bh = dismiss[0].extents()
    click(desktop, (bx + bw // 2, by + bh // 2))
    harness.wait_until(lambda: toast_text(app) is None, 5, 0.1, "the toast to go")
    desktop.scroll(x, view[1] + view[3] // 2, clicks=10)
    cells = app.wait_cells(lambda cs: "red" in cell_names(cs) and cs[-1].y + cs[-1].height <= view[1] + view[3],
                           5, what="the end of the gallery in view, with red")
    red = [c for c in visible_parts(cells, view) if cell_names([c]) == ["red"]]
    assert red, "red is not shown enough to see:\n" + harness.format_cells(cells)
    problems = check_colours(app.screenshot(), red, colours)
    assert not problems, "after the drop:\n  " + "\n  ".join(problems)
    assert cell_names(cells) == order[order.index(cell_names(cells)[0]):][:len(cells)]

    # the top edge scrolls up; Escape there cancels: the order and the file stay
    saved, files = app.state_bytes(), app.library_files()
    bottom_offset = scroll_offset()
    cell = cells[len(cells) // 2]
    with PointerDrag(desktop) as d:
        d.press(*cell.center, direction=(0, -1))
        d.move(x, view[1] + 10, rest=0)
        harness.wait_until(lambda: scroll_offset() < bottom_offset - 300, 5, 0.05,
                           "the view to scroll up with the pointer at the top edge",
                           lambda: "offset %d (was %d)" % (scroll_offset(), bottom_offset))
        d.escape()
    assert saved_names(app) == order
    wait_file_stable(app, saved, files)


def test_escape_mid_drag_and_a_drop_outside_change_nothing(make_app, http_server, desktop):
    app, colours = launch_gallery(make_app, http_server)
    resting = app.wait_settled(12)
    original = app.state_bytes()
    files = app.library_files()
    named = by_name(resting)
    gallery_box = app.gallery().extents()

    # Escape while the room is open before orange
    with PointerDrag(desktop) as d:
        d.press(*named["green"].center, direction=(1, 1))
        d.move(*left_half(named["orange"]), rest=0.2)
        app.wait_cells(lambda cs: [c.box for c in cs] != [c.box for c in resting], 5,
                       what="room to open (the drag is live)")
        d.escape()
    cells = app.wait_cells(lambda cs: [c.box for c in cs] == [c.box for c in resting], 5,
                           what="the cells back at their places after Escape")
    assert cell_names(cells) == NAMES
    wait_file_stable(app, original, files)
    assert toast_text(app) is None, "a toast after a cancelled drag: %r" % toast_text(app)
    time.sleep(0.3)
    problems = screen_problems(app, colours)
    assert not problems, "after Escape:\n  " + "\n  ".join(problems)

    # a drop on the header bar, which takes no drops: a "not allowed" cursor there, then nothing happens
    wx, wy, ww, wh = app.window_extents()
    with PointerDrag(desktop) as d:
        d.press(*named["yellow"].center, direction=(0, -1))
        d.move(*left_half(named["magenta"]), rest=0.2)
        app.wait_cells(lambda cs: [c.box for c in cs] != [c.box for c in resting], 5,
                       what="room to open (the drag is live)")
        d.move(wx + ww // 2 - 150, gallery_box[1] - 25, rest=0.3)
        assert wait_cursor(desktop, ("dnd-none",)) == "dnd-none"
        d.release()
    cells = app.wait_cells(lambda cs: [c.box for c in cs] == [c.box for c in resting], 5,
                           what="the cells back at their places after a drop on the header bar")
    assert cell_names(cells) == NAMES
    wait_file_stable(app, original, files)
    assert toast_text(app) is None, "a toast after a drop on the header bar: %r" % toast_text(app)

    # a drop outside the window, on the bare screen
    sw, sh = desktop.size
    assert wx + ww + 100 < sw, "no bare screen right of the window"
    with PointerDrag(desktop) as d:
        d.press(*named["lime"].center, direction=(1, 0))
        d.move(*left_half(named["cyan"]), rest=0.2)
        app.wait_cells(lambda cs: [c.box for c in cs] != [c.box for c in resting], 5,
                       what="room to open (the drag is live)")
        d.move(wx + ww + 80, wy + wh // 2, rest=0.3)
        d.release()
    cells = app.wait_cells(lambda cs: [c.box for c in cs] == [c.box for c in resting], 5,
                           what="the cells back at their places after a drop outside the window")
    assert cell_names(cells) == NAMES
    wait_file_stable(app, original, files)
    assert toast_text(app) is None, "a toast after a drop outside the window: %r" % toast_text(app)


def test_undo_and_redo_each_move_and_the_order_persists_after_relaunch(make_app, http_server, desktop):
    app, colours = launch_gallery(make_app, http_server)
    named = by_name(app.wait_settled(12))
    states = [app.state()]
    orders = [NAMES]

    # move 1: red after blue (drag)
    drag(desktop, named["red"].center, right_half(named["blue"]))
    orders.append(moved(orders[-1], ["red"], orders[-1].index("blue")))
    wait_saved(app, orders[-1])
    states.append(app.state())
    # move 2: red one step further (Alt+Right, red is selected)
    wait_selected(app, ["red"])
    desktop.key("alt+Right")
    orders.append(moved(orders[-1], ["red"], orders[-1].index("red") + 1))
    wait_saved(app, orders[-1])
    states.append(app.state())
    # move 3: a selection of two (brown and pink) to the start
    named = by_name(wait_order(app, orders[-1]))
    click(desktop, named["brown"].center)
    click(desktop, named["pink"].center, "ctrl")
    wait_selected(app, ["brown", "pink"])
    drag(desktop, named["brown"].center, left_half(named["green"]))
    orders.append(moved(orders[-1], ["brown", "pink"], 0))
    assert orders[-1][:2] == ["pink", "brown"]
    wait_saved(app, orders[-1])
    states.append(app.state())
    assert len({json.dumps(s, sort_keys=True) for s in states}) == 4

    # Ctrl+Z three times: each move undone, in the window and in the file
    for k in (2, 1, 0):
        desktop.key("ctrl+z")
        wait_saved(app, orders[k], what="the library after undo to step %d" % k)
        assert app.state() == states[k], "after undo to step %d the file differs from then" % k
        wait_order(app, orders[k])
    time.sleep(0.3)
    desktop.key("ctrl+z")  # nothing more to undo
    time.sleep(0.5)
    assert saved_names(app) == NAMES
    # Ctrl+Shift+Z three times: each move redone
    for k in (1, 2, 3):
        desktop.key("ctrl+shift+z")
        wait_saved(app, orders[k], what="the library after redo to step %d" % k)
        assert app.state() == states[k], "after redo to step %d the file differs from then" % k
        wait_order(app, orders[k])

    # quit and launch again: the order is kept, and shown
    saved, files = app.state_bytes(), app.library_files()
    app.stop()
    assert app.state_bytes() == saved, "quitting changed the library"
    assert app.library_files() == files, "quitting wrote the library folder"
    app.start()
    cells = wait_order(app, orders[3], timeout=60)
    time.sleep(0.3)
    problems = screen_problems(app, colours, cells)
    assert not problems, "after relaunch:\n  " + "\n  ".join(problems)
    assert app.state_bytes() == saved, "launching changed the library"
    assert app.library_files() == files, "launching wrote the library folder"


def test_keyboard_moves_the_selection_one_step(make_app, http_server, desktop):
    app, colours = launch_gallery(make_app, http_server)
    named = by_name(app.wait_settled(12))
    click(desktop, named["blue"].center)
    wait_selected(app, ["blue"])

    # Alt+Right: one step right
    desktop.key("alt+Right")
    order = moved(NAMES, ["blue"], NAMES.index("blue") + 1)
    assert order[:4] == ["red", "green", "yellow", "blue"]
    wait_saved(app, order)
    wait_order(app, order)
    # Ctrl+Shift+Left: back
    desktop.key("ctrl+shift+Left")
    wait_saved(app, NAMES)
    cells = wait_order(app, NAMES)
    # Right arrow: the focus and the selection go to the next cell, nothing moves
    desktop.key("Right")
    wait_selected(app, ["yellow"])
    assert saved_names(app) == NAMES
    # Alt+Down: yellow goes to the next row, before the cell nearest below it
    rows = rows_of(cells)
    yellow = by_name(cells)["yellow"]
    below = min(rows[1], key=lambda c: abs(c.x + c.width / 2 - (yellow.x + yellow.width / 2)))
    desktop.key("alt+Down")
    order = moved(NAMES, ["yellow"], [n for n in NAMES if n != "yellow"].index(cell_names([below])[0]))
    wait_saved(app, order, what="the library with yellow before %s" % cell_names([below])[0])
    cells = wait_order(app, order)
    assert "yellow" in cell_names(row_of(cells, cell_names([below])[0]))
    # Alt+Left at the very start does nothing
    desktop.key("Home")
    wait_selected(app, [order[0]])
    saved = app.state_bytes()
    desktop.key("alt+Left")
    time.sleep(0.5)
    assert app.state_bytes() == saved, "Alt+Left on the first cell changed the library"
    time.sleep(0.3)
    problems = screen_problems(app, colours)
    assert not problems, "after the keyboard moves:\n  " + "\n  ".join(problems)


def test_selection_by_click_ctrl_click_shift_click_ctrl_a_and_escape(make_app, http_server, desktop):
    app, colours = launch_gallery(make_app, http_server)
    named = by_name(app.wait_settled(12))
    original = app.state_bytes()
    click(desktop, named["green"].center)
    wait_selected(app, ["green"])
    click(desktop, named["cyan"].center)
    wait_selected(app, ["cyan"])
    click(desktop, named["teal"].center, "ctrl")
    wait_selected(app, ["cyan", "teal"])
    click(desktop, named["cyan"].center, "ctrl")
    wait_selected(app, ["teal"])
    click(desktop, named["green"].center)
    click(desktop, named["yellow"].center, "shift")
    wait_selected(app, ["green", "blue", "yellow"])
    desktop.key("ctrl+a")
    wait_selected(app, NAMES)
    desktop.key("Escape")
    wait_selected(app, [])
    time.sleep(0.3)
    assert app.state_bytes() == original, "selecting changed the library"


def test_a_drop_back_in_place_changes_nothing_and_a_group_dropped_on_itself_closes_up(make_app, http_server,
                                                                                      desktop):
    app, colours = launch_gallery(make_app, http_server)
    named = by_name(app.wait_settled(12))
    original = app.state_bytes()
    files = app.library_files()

    # red dropped on its own right half: where it was; no move, no save, nothing to undo
    drag(desktop, named["red"].center, right_half(named["red"]), direction=(1, 0))
    wait_file_stable(app, original, files)
    assert toast_text(app) is None, "a toast for a drop in place: %r" % toast_text(app)
    desktop.key("ctrl+z")
    wait_file_stable(app, original, files, 0.5)

    # green, orange and teal dropped on orange's right half: together, right after the cells before that point
    click(desktop, named["green"].center)
    click(desktop, named["orange"].center, "ctrl")
    click(desktop, named["teal"].center, "ctrl")
    wait_selected(app, ["green", "orange", "teal"])
    drag(desktop, named["teal"].center, right_half(named["orange"]))
    group = ["green", "orange", "teal"]
    before_point = NAMES[:NAMES.index("orange") + 1]
    order = moved(NAMES, group, len([n for n in before_point if n not in group]))
    assert order[:8] == ["red", "blue", "yellow", "magenta", "cyan", "green", "orange", "teal"]
    wait_saved(app, order, what="the library with the group closed up after cyan")
    wait_order(app, order)
    time.sleep(0.4)
    problems = screen_problems(app, colours)
    assert not problems, "after the drop on itself:\n  " + "\n  ".join(problems)

    # a new move after an undo: nothing left to redo
    desktop.key("ctrl+z")
    wait_saved(app, NAMES, what="the library after undo")
    named = by_name(wait_order(app, NAMES))
    drag(desktop, named["brown"].center, left_half(named["red"]))
    order = moved(NAMES, ["brown"], 0)
    saved = wait_saved(app, order, what="the library with brown first")
    files = app.library_files()
    desktop.key("ctrl+shift+z")
    wait_file_stable(app, saved, files, 0.5)


def test_after_ctrl_z_the_toast_does_not_undo_an_earlier_move(make_app, http_server, desktop):
    """The toast offers to undo one move. Once that move is undone with Ctrl+Z, the toast must not take back
    another, earlier move: it goes away, or its Undo does nothing."""
    app, colours = launch_gallery(make_app, http_server)
    named = by_name(app.wait_settled(12))
    drag(desktop, named["red"].center, right_half(named["blue"]))
    first = moved(NAMES, ["red"], NAMES.index("blue"))
    wait_saved(app, first, what="the library after the first move")
    named = by_name(wait_order(app, first))
    drag(desktop, named["brown"].center, left_half(named["green"]))
    second = moved(first, ["brown"], 0)
    wait_saved(app, second, what="the library after the second move")
    wait_toast(app, "Image moved")
    desktop.key("ctrl+z")
    wait_saved(app, first, what="the library after Ctrl+Z")
    assert_toast_undo_spent(app, desktop, first, "its move was undone with Ctrl+Z")
