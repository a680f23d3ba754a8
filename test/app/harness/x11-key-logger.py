#!/usr/bin/python3
"""A plain X11 window that takes the input focus and prints every key event the X server delivers to it.

Prints `ready WINDOW_ID` once focused, then one line per event: `press KEYSYM STATE` / `release KEYSYM STATE`
(STATE is the X modifier mask). It shows exactly what the focused app receives, below any toolkit: a key
grabbed by another client (XGrabKey) never arrives here. Stops when stdin closes.
"""
import select
import sys

from Xlib import X, XK, display

d = display.Display()
screen = d.screen()
win = screen.root.create_window(0, 0, 300, 200, 0, screen.root_depth, X.InputOutput, X.CopyFromParent,
                                event_mask=X.KeyPressMask | X.KeyReleaseMask | X.FocusChangeMask | X.StructureNotifyMask)
win.set_wm_name('tingxie-key-logger')
win.map()
d.sync()


def say(*words):
    sys.stdout.write(' '.join(str(w) for w in words) + '\n')
    sys.stdout.flush()


# Keysym names (space, Left, Escape, Alt_R…) from the groups python-xlib loads by default.
NAMES = {value: name[3:] for name, value in vars(XK).items() if name.startswith('XK_') and isinstance(value, int)}

mapped = False
while True:
    readable, _, _ = select.select([sys.stdin, d.fileno()], [], [], 0.5)
    if sys.stdin in readable and sys.stdin.readline() == '':
        break
    while d.pending_events():
        ev = d.next_event()
        if ev.type == X.MapNotify and not mapped:
            mapped = True
            win.set_input_focus(X.RevertToParent, X.CurrentTime)
            d.sync()
            say('ready', win.id)
        elif ev.type in (X.KeyPress, X.KeyRelease):
            keysym = d.keycode_to_keysym(ev.detail, 0)
            name = NAMES.get(keysym, hex(keysym))
            say('press' if ev.type == X.KeyPress else 'release', name, ev.state)
