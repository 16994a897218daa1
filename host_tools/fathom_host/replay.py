# `fathom replay DIR`: a unit's saved, finished game replayed with every player's secrets, as the
# unit's own replay screen draws it. The frames come from firmware/hostmodes/replayrun.py, run in
# the host's MicroPython on the unit's firmware (the same flow/replay.py and game parts as on the
# unit, a real framebuf): this module only turns its frames into pictures and pages.
#   --out game.gif   an animated GIF (or game.png: the frames in a strip, top to bottom)
#   --text FILE      the account of the game in words, step by step ('-': stdout)
#   --html FILE      one page: the frames with a slider and each step's words
import base64
import html
import io
import json
import os
import pathlib
import subprocess

from fathom_host import FIRMWARE, FathomError

SIZES = {"128x64": (128, 64), "72x40": (72, 40)}
FG, BG = (120, 210, 255), (4, 10, 20)   # the emulator's panel colours (emulator/units.py)
STEP_MS = 700       # a GIF frame's time on screen
LAST_MS = 3000      # the last frame's: the end stays up before the loop starts again
TIMEOUT_S = 600     # a whole game's replay, generous: a long Periplus game on a busy machine


def add_arguments(p):
    p.add_argument("dir", help="a unit's storage folder (`fathom emu --dir D` keeps each unit's "
                               "in D/unitN/data), a unit folder, or the emulator's folder (its "
                               "first unit's)")
    p.add_argument("--out", default=None, help="GIF (animated) or PNG (a strip) of the frames")
    p.add_argument("--text", default=None, help="the game's account in words ('-': stdout)")
    p.add_argument("--html", default=None, help="a page with the frames and a slider")
    p.add_argument("--size", choices=sorted(SIZES), default="128x64", help="the panel")
    p.add_argument("--scale", type=int, default=3, help="pixels per panel pixel (pictures)")


def storage_dir(path):
    """The storage folder a path names: itself when it holds a game journal, else its data/
    (a unit's folder) or unit0/data (the emulator's: its first unit)."""
    p = pathlib.Path(path)
    for cand in (p, p / "data", p / "unit0" / "data"):
        if cand.is_dir() and any(f.name.startswith("game") for f in cand.iterdir()):
            return cand
    raise FathomError("%s: no saved game there (nor in data/ or unit0/data/)" % path)


def steps(path, size="128x64"):
    """[{"at", "end", "fb": bytes, "lines"}] of the game in `path`, from the unit's firmware."""
    from fathom_host.emulator.units import micropython_exe, micropython_path
    w, h = SIZES[size]
    env = dict(os.environ, MICROPYPATH=os.pathsep.join(micropython_path("wheel")))
    cmd = [micropython_exe("wheel"), "-X", "heapsize=8m", "-m", "hostmodes.replayrun",
           str(storage_dir(path)), str(w), str(h)]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=TIMEOUT_S,
                              cwd=str(FIRMWARE))
    except subprocess.TimeoutExpired:
        raise FathomError("the replay took over %d s" % TIMEOUT_S)
    out = []
    for line in proc.stdout.splitlines():
        if line.startswith("fathom-replay-error "):
            raise FathomError(json.loads(line.split(" ", 1)[1])["error"])
        if line.startswith("fathom-replay "):
            s = json.loads(line.split(" ", 1)[1])
            s["fb"] = bytes.fromhex(s["fb"])
            out.append(s)
    if not out:
        raise FathomError("the replay gave nothing: %s" % (proc.stderr or proc.stdout)[-400:])
    return out


def image(fb, w, h, scale=1):
    """A MONO_VLSB panel buffer as a Pillow image in the emulator's colours."""
    from PIL import Image
    img = Image.new("RGB", (w, h), BG)
    px = img.load()
    for y in range(h):
        base, bit = (y >> 3) * w, 1 << (y & 7)
        for x in range(w):
            if fb[base + x] & bit:
                px[x, y] = FG
    return img.resize((w * scale, h * scale), 0) if scale != 1 else img


def write_gif(frames, out, w, h, scale):
    imgs = [image(s["fb"], w, h, scale) for s in frames]
    durations = [STEP_MS] * (len(imgs) - 1) + [LAST_MS]
    imgs[0].save(out, save_all=True, append_images=imgs[1:], duration=durations, loop=0,
                 optimize=False, disposal=1)


def write_strip(frames, out, w, h, scale):
    from PIL import Image
    strip = Image.new("RGB", (w * scale, (h * scale + scale) * len(frames)), (0, 0, 0))
    for i, s in enumerate(frames):
        strip.paste(image(s["fb"], w, h, scale), (0, i * (h * scale + scale)))
    strip.save(out)


def account(frames):
    """The game in words, one paragraph a step: the words page of each step."""
    out = []
    for s in frames:
        out.append("\n".join(["[%d/%d]" % (s["at"], s["end"])] + s["lines"][1:]))
    return "\n\n".join(out) + "\n"


def page(frames, w, h, scale, title):
    """One HTML page: every frame as an inline PNG, a slider over them, each step's words."""
    imgs, texts = [], []
    for s in frames:
        buf = io.BytesIO()
        image(s["fb"], w, h, scale).save(buf, "PNG")
        imgs.append("data:image/png;base64," + base64.b64encode(buf.getvalue()).decode())
        texts.append("\n".join(s["lines"][1:]))
    return _PAGE % {"title": html.escape(title), "n": len(frames) - 1,
                    "imgs": json.dumps(imgs), "texts": json.dumps(texts)}


_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>%(title)s</title>
<style>body{background:#111;color:#ddd;font-family:monospace}img{image-rendering:pixelated}
pre{white-space:pre-wrap}</style></head><body>
<h1>%(title)s</h1>
<img id="panel" alt="the unit's panel at this step"><br>
<input id="step" type="range" min="0" max="%(n)d" value="0" style="width:40em">
<span id="at"></span><pre id="words"></pre>
<script>
const imgs = %(imgs)s, texts = %(texts)s;
const step = document.getElementById("step");
function show() { const i = +step.value; document.getElementById("panel").src = imgs[i];
  document.getElementById("at").textContent = i + "/" + (imgs.length - 1);
  document.getElementById("words").textContent = texts[i]; }
step.oninput = show; show();
</script></body></html>
"""


def run(args):
    if not (args.out or args.text or args.html):
        raise FathomError("say what to write: --out game.gif|game.png, --text FILE, --html FILE")
    w, h = SIZES[args.size]
    frames = steps(args.dir, args.size)
    if args.out:
        out = str(args.out)
        if out.lower().endswith(".gif"):
            write_gif(frames, out, w, h, args.scale)
        elif out.lower().endswith(".png"):
            write_strip(frames, out, w, h, args.scale)
        else:
            raise FathomError("--out %s: name a .gif or a .png" % out)
        print("%s: %d steps" % (out, len(frames)))
    if args.text:
        text = account(frames)
        if args.text == "-":
            print(text, end="")
        else:
            pathlib.Path(args.text).write_text(text)
    if args.html:
        pathlib.Path(args.html).write_text(page(frames, w, h, args.scale, "fathom replay"))
        print("%s: %d steps" % (args.html, len(frames)))
    return 0
