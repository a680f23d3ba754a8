#!/usr/bin/python3
"""Real X key grabs for the electron stand-in's globalShortcut (Electron on X11 uses XGrabKey too).

Reads lines on stdin:  grab ID KEYSYM MODMASK   |   ungrab ID
Writes lines:          ok ID | taken ID | bad ID | press ID
A grabbed key combination goes to this client only, never to the focused window, as with Electron.
Lock modifiers (Caps Lock, Num Lock) are grabbed in every combination so they do not break a shortcut.
"""
import select
import sys

from Xlib import X, XK, display, error

d = display.Display()
root = d.screen().root
root.change_attributes(event_mask=X.KeyPressMask)
LOCKS = [0, X.LockMask, X.Mod2Mask, X.LockMask | X.Mod2Mask]
grabs = {}  # id -> (keycode, mods)


def say(*words):
    sys.stdout.write(' '.join(str(w) for w in words) + '\n')
    sys.stdout.flush()


def grab(gid, keysym_name, mods):
    keysym = XK.string_to_keysym(keysym_name)
    keycode = d.keysym_to_keycode(keysym) if keysym else 0
    if keycode == 0:
        return say('bad', gid)
    catcher = error.CatchError(error.BadAccess)
    for lock in LOCKS:
        root.grab_key(keycode, mods | lock, True, X.GrabModeAsync, X.GrabModeAsync, onerror=catcher)
    d.sync()
    if catcher.get_error():
        for lock in LOCKS:
            root.ungrab_key(keycode, mods | lock)
        d.sync()
        return say('taken', gid)
    grabs[gid] = (keycode, mods)
    say('ok', gid)


def ungrab(gid):
    if gid in grabs:
        keycode, mods = grabs.pop(gid)
        for lock in LOCKS:
            root.ungrab_key(keycode, mods | lock)
        d.sync()


buffer = ''
while True:
    readable, _, _ = select.select([sys.stdin, d.fileno()], [], [], 1.0)
    if sys.stdin in readable:
        chunk = sys.stdin.readline()
        if chunk == '':
            break
        parts = chunk.split()
        if len(parts) == 4 and parts[0] == 'grab':
            grab(parts[1], parts[2], int(parts[3]))
        elif len(parts) == 2 and parts[0] == 'ungrab':
            ungrab(parts[1])
    while d.pending_events():
        ev = d.next_event()
        if ev.type == X.KeyPress:
            mods = ev.state & ~(X.LockMask | X.Mod2Mask)
            for gid, (keycode, gmods) in grabs.items():
                if keycode == ev.detail and gmods == mods:
                    say('press', gid)
