# Host-only modes (never deployed, never frozen): headless bot games for `fathom sim`, the link
# soak, and the in-memory faulty wire the link's tests and bench use. On the emulated units'
# path through firmware/; `fathom deploy` and firmware/manifest.py leave this folder out.
