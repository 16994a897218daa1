# The top bar every screen wears: an inverted row 0 with the title at the left, and at the right
# the link icon and one short field in the 3x5 font ("P2", "7/24"). The right side is placed
# first and the title gets whatever room is left (title_room says how much, before drawing), so
# a long title can never push the field or the icon off the panel. Nothing here builds a
# string: a counter redrawn per cursor move is free.
from fathom.ui.font import CH, TW, digits, number, put, tiny, tiny_width

# The cell's charge in %, drawn at the right end of every bar that reaches the panel's edge;
# None (a board that cannot read its cell) draws nothing. The app sets it (hal/battery.py).
CELL = [None]


def cell_width():
    """Pixels the charge takes at the bar's end: its digits, '%' and a gap before it."""
    p = CELL[0]
    return 0 if p is None else (digits(p) + 1) * TW + 2


def link_icon(d, x, state):
    """Three states as tiny glyphs that read at 8 px (drawn in colour 1 on a cleared cell)."""
    if state == "linked":
        d.fill_rect(x, 5, 2, 3, 1)
        d.fill_rect(x + 3, 3, 2, 5, 1)
        d.fill_rect(x + 6, 1, 2, 7, 1)
    elif state == "retrying":
        d.fill_rect(x, 5, 2, 3, 1)
        d.rect(x + 3, 3, 2, 5, 1)
        d.pixel(x + 6, 7, 1)
    elif state == "lost":
        d.line(x, 1, x + 6, 7, 1)
        d.line(x, 7, x + 6, 1, 1)


def field_width(right=None, pos=0, total=0):
    """Pixels the right-hand field takes: `right` text, or pos/total when total > 0."""
    if total:
        return (digits(pos) + 1 + digits(total)) * TW - 1
    return tiny_width(right) if right else 0


def title_room(w, link=None, right=None, pos=0, total=0):
    """The title's room in 8x8 cells in a w-pixel bar with that field and icon: a screen with
    a long and a short title picks one before drawing (top_bar returns the same number)."""
    w -= cell_width()
    xi = w - 9 if link else w        # the icon's cell
    fw = field_width(right, pos, total)
    # a gap before the field, so the title's last letter never touches it
    return (xi - fw - 3 if fw else xi) // CH


def top_bar(d, title, link=None, right=None, pos=0, total=0, x=0, w=-1, fit=False, small=False):
    """Row 0 from x across w pixels (the whole panel by default; a side panel's own bar where
    the board keeps every row): title, then (right-aligned) the field and the link icon.
    With fit, a title too long for its 8x8 room is set in the 3x5 font instead (cut only if
    even that is too long): a game's status on a 72x40 panel reads whole. With small, the
    title is set in 3x5 whatever its length: a screen whose titles change (a game's questions)
    keeps one font at a size instead of flipping between two. Returns the title's
    room in 8x8 cells, for a caller that wants to shorten its own title instead of a '~'."""
    if w < 0:
        w = d.width - x
    d.fill_rect(x, 0, w, CH, 1)
    cw = cell_width() if x + w == d.width else 0
    if cw:
        w -= cw
        xx = number(d, CELL[0], x + w + 2, 1, 0, True)
        tiny(d, "%", xx, 1, 0)
    room = title_room(w + cw, link, right, pos, total)
    xi = x + w - 9 if link else x + w
    fw = field_width(right, pos, total)
    if small or fit and len(title) > room:
        # the same gap before the field as an 8x8 title keeps
        put(d, title, x + 1, 1, ((xi - fw - 3 if fw else xi) - x) // TW, 0, True)
    else:
        put(d, title, x, 0, room, 0)
    if fw:
        xf = xi - fw - 1
        if total:
            xx = number(d, pos, xf, 1, 0, True)
            tiny(d, "/", xx, 1, 0)
            number(d, total, xx + TW, 1, 0, True)
        else:
            tiny(d, right, xf, 1, 0)
    if link:
        d.fill_rect(xi, 0, x + w - xi, CH, 0)
        link_icon(d, xi + 1, link)
    return room
