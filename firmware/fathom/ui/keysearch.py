# The fewest key presses from one UI state to another, found by walking the screen's own key
# handling (a breadth-first search): keys_for() of a screen and BoardGrid.keys_to() ask it, so
# the keys they answer are the keys the screen really obeys. Not on a redraw path: it builds
# its tables freely, and is imported only when a key count is asked for.


def shortest(start, keys, step, goal):
    """The keys from state `start` to the nearest state where goal(state) is true, or None
    when none is reached. step(state, key) is the state that key leads to, or None where it
    does nothing worth following (the search does not go on from there). States must be
    hashable (ints, tuples), except a goal state, which is never kept."""
    if goal(start):
        return []
    prev = {start: None}
    todo = [start]
    i = 0
    while i < len(todo):
        st = todo[i]
        i += 1
        for k in keys:
            nx = step(st, k)
            if nx is None:
                continue
            if goal(nx):
                out = [k]
                while prev[st] is not None:
                    st, kk = prev[st]
                    out.append(kk)
                out.reverse()
                return out
            if nx not in prev:
                prev[nx] = (st, k)
                todo.append(nx)
    return None
