#!/usr/bin/python3
"""Real X key grabs for the electron stand-in's globalShortcut (Electron on X11 uses XGrabKey too).

Usage: x11-grab-keys.py REQUEST_FIFO REPLY_FILE
Reads lines from REQUEST_FIFO:  grab ID KEYSYM MODMASK   |   ungrab ID
Appends answers to REPLY_FILE:  ok ID | taken ID | bad ID | ungrabbed ID   (the stand-in waits for them,
                                 so register/unregister are synchronous, as Electron's are)
Writes to stdout:               press ID   (a grabbed combination was pressed)
A grabbed key combination goes to this client only, never to the focused window, as with Electron.
Lock modifiers (Caps Lock, Num Lock) are grabbed in every combination so they do not break a shortcut.
"""
import os
import select
import sys

from Xlib import X, XK, display, error

d = display.Display()
root = d.screen().root
root.change_attributes(event_mask=X.KeyPressMask)
LOCKS = [0, X.LockMask, X.Mod2Mask, X.LockMask | X.Mod2Mask]
grabs = {}  # id -> (keycode, mods)

requests = os.open(sys.argv[1], os.O_RDONLY | os.O_NONBLOCK)
replies = open(sys.argv[2], 'a', buffering=1)


def answer(*words):
    replies.write(' '.join(str(w) for w in words) + '\n')
    replies.flush()


def say(*words):
    sys.stdout.write(' '.join(str(w) for w in words) + '\n')
    sys.stdout.flush()


def grab(gid, keysym_name, mods):
    keysym = XK.string_to_keysym(keysym_name)
    keycode = d.keysym_to_keycode(keysym) if keysym else 0
    if keycode == 0:
        return answer('bad', gid)
    catcher = error.CatchError(error.BadAccess)
    for lock in LOCKS:
        root.grab_key(keycode, mods | lock, True, X.GrabModeAsync, X.GrabModeAsync, onerror=catcher)
    d.sync()
    if catcher.get_error():
        for lock in LOCKS:
            root.ungrab_key(keycode, mods | lock)
        d.sync()
        return answer('taken', gid)
    grabs[gid] = (keycode, mods)
    answer('ok', gid)


def ungrab(gid):
    if gid in grabs:
        keycode, mods = grabs.pop(gid)
        for lock in LOCKS:
            root.ungrab_key(keycode, mods | lock)
        d.sync()
    answer('ungrabbed', gid)


def handle(line):
    parts = line.split()
    if len(parts) == 4 and parts[0] == 'grab':
        grab(parts[1], parts[2], int(parts[3]))
    elif len(parts) == 2 and parts[0] == 'ungrab':
        ungrab(parts[1])


pending = b''
while True:
    readable, _, _ = select.select([requests, d.fileno()], [], [], 1.0)
    if requests in readable:
        try:
            chunk = os.read(requests, 4096)
        except BlockingIOError:
            chunk = None
        if chunk == b'':
            sys.exit(0)  # every writer is gone: the app exited
        pending += chunk or b''
        while b'\n' in pending:
            line, pending = pending.split(b'\n', 1)
            handle(line.decode())
    while d.pending_events():
        ev = d.next_event()
        if ev.type == X.KeyPress:
            mods = ev.state & ~(X.LockMask | X.Mod2Mask)
            for gid, (keycode, gmods) in grabs.items():
                if keycode == ev.detail and gmods == mods:
                    try:
                        say('press', gid)
                    except BrokenPipeError:
                        sys.exit(0)
    if os.getppid() == 1:
        sys.exit(0)
