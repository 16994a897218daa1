# The espnow twin's irq(): what the board's Wi-Fi task does for ESPNow.irq(). On an ESP32 that
# task runs beside the interpreter and, for every packet it keeps in the receive buffer, calls
# mp_sched_schedule(callback, arg) (ports/esp32/modespnow.c, recv_cb): the callback runs at the
# interpreter's next check, in whatever Python the unit is busy with. Here the packets come over
# the ether's socket, which only Python reads; so while a callback is set a thread stands in for
# the Wi-Fi task: it waits for the socket to be readable and schedules a pump, and the pump
# (espnow._pump, on the interpreter's thread, where the receive ring is kept) owes the callback
# one call for every packet it keeps. The calls owed take one slot of the schedule queue at a
# time: a pump keeps in one go what a board's task hands over packet by packet, and a burst
# scheduled at once would overflow the queue where the board's, drained between packets, does
# not. Loaded only by irq(): a unit that polls the radio never has it on its heap.
import select
import time

import _thread
import micropython

_WAIT_MS = 50  # how long the thread waits on the socket before it looks whether to stop


def set_handler(state, callback, arg, pump):
    """callback(arg) for every packet kept; pump(0) keeps what the ether has sent (espnow)."""
    if callback is None:
        state.irq = None
        state.owed = 0
        state.watch += 1  # the running thread, if any, ends within _WAIT_MS
        return
    running = state.irq is not None
    state.irq = (callback, arg)
    if not running:
        state.watch += 1
        _thread.start_new_thread(_radio_task, (state, state.watch, (state, pump)))


def fire(state):
    """From espnow._arrive, for a packet kept: one more call owed."""
    state.owed += 1
    release(state)


def release(state):
    """Schedule the calls owed, unless they are scheduled already (espnow._leave too, once the
    twin's call that held them back has returned)."""
    if state.owed and not state.delivering:
        state.delivering = True
        try:
            micropython.schedule(_deliver, state)
        except RuntimeError:  # the queue is full of others' calls: the next arrival tries again
            state.delivering = False


def _deliver(state):
    state.delivering = False
    if state.busy or not state.owed:
        return  # held back while a twin call runs: espnow._leave releases it
    state.owed -= 1
    handler = state.irq
    release(state)  # the next one owed, before this one runs (it may raise)
    if handler is not None:
        handler[0](handler[1])


def _pump(job):
    # Busy, the twin's call under way reads the socket itself or leaves it readable, and then
    # the radio task asks again.
    state, pump = job
    if not state.busy:
        pump(0)
    state.kick = False


def _radio_task(state, gen, job):
    sock = poller = None
    while state.watch == gen and state.irq is not None:
        wire = state.wire
        if wire is None or wire.sock is None:
            time.sleep_ms(_WAIT_MS)
            continue
        if wire.sock is not sock:
            sock = wire.sock
            poller = select.poll()
            poller.register(sock, select.POLLIN)
        ready = False
        for _ in poller.ipoll(_WAIT_MS):
            ready = True
        if not ready:
            continue
        state.kick = True
        try:
            micropython.schedule(_pump, job)
        except RuntimeError:
            state.kick = False  # queue full: try again after the next wait
            time.sleep_ms(1)
            continue
        # the interpreter has not read the socket yet: wait for it, not on the socket
        while state.kick and state.watch == gen:
            time.sleep_ms(1)
