"""Key-mash the real explorer in a real terminal (tmux), by hand.

    .venv/bin/python bench/keymash_tmux.py [--keys 3000] [--seed 1] [--preset imbalanced]

Starts ``threshold-lab --preset imbalanced`` in a detached tmux session of
120x40 (its working directory a fresh temporary folder, so a save lands there,
never in the repository), sends seeded random keys from the same key set as
``tests/tui/test_soak.py`` (every key bound on the main screen and the row table,
dialog text, Enter, Esc, the command palette, help, the preset picker, save)
through ``tmux send-keys`` in small batches with tiny sleeps, so keys often
arrive together, as they do from a fast typist or a paste.

Where the errors go: Textual draws the whole screen on stderr, so
``threshold-lab 2> /tmp/keymash.err`` would send the explorer itself into the
file and leave the pane blank. Instead the pane's whole output stream (the
explorer's stderr: its screen, and any traceback it prints) is copied to
/tmp/keymash.err with ``tmux pipe-pane``, and that file is searched.

Quitting is part of the key set (q, then y or Enter when there are unsaved
edits). When the explorer ends, the log decides: a traceback (or a non-zero
status) is a crash and ends the run; otherwise it was a quit, the pane is
respawned with the same command and the mash goes on. (The exit status alone
cannot decide: the explorer has exited 0 after a traceback.)

At the end it closes any dialog with Esc, then passes only if the explorer is
still running, its pane shows "Threshold", and /tmp/keymash.err holds no
"Traceback". It prints one line (on failure: the exception, its last frame and
the last 20 keys sent; the pane is kept in /tmp/keymash.pane.txt) and exits 1 on
failure, 2 if tmux is missing.
"""

from __future__ import annotations

import argparse
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from textual.keys import REPLACED_KEYS, _get_unicode_name_from_key  # noqa: E402

from tests.tui.test_soak import plan  # noqa: E402  (the soak test's key set and mix)

SESSION = "keymash"
ERR = Path("/tmp/keymash.err")
#: The pane as it was at the end (with 300 lines of history), for a person to read.
PANE = Path("/tmp/keymash.pane.txt")

#: Textual key names that tmux spells differently.
TMUX_NAMES = {
    "enter": "Enter",
    "escape": "Escape",
    "backspace": "BSpace",
    "delete": "DC",
    "space": "Space",
    "tab": "Tab",
    "shift+tab": "BTab",
    "up": "Up",
    "down": "Down",
    "left": "Left",
    "right": "Right",
    "home": "Home",
    "end": "End",
    "pageup": "PPage",
    "pagedown": "NPage",
    "shift+left": "S-Left",
    "shift+right": "S-Right",
    "shift+up": "S-Up",
    "shift+down": "S-Down",
}


def tmux_key(key: str) -> str:
    """The tmux send-keys name of a Textual key name."""
    if key in TMUX_NAMES:
        return TMUX_NAMES[key]
    if key.startswith("ctrl+") and len(key) == 6:
        return "C-" + key[-1]
    if len(key) == 1:
        return key
    try:  # a printable key by name: full_stop, question_mark, left_square_bracket…
        char = unicodedata.lookup(_get_unicode_name_from_key(REPLACED_KEYS.get(key, key)))
    except KeyError as exc:
        raise ValueError(f"no tmux name for Textual key {key!r}") from exc
    # tmux reads a lone ";" as a command separator.
    return "\\;" if char == ";" else char


def tmux(*args: str, check: bool = True) -> str:
    done = subprocess.run(["tmux", *args], capture_output=True, text=True, check=False)
    if check and done.returncode != 0:
        raise RuntimeError(f"tmux {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout


def pane_state() -> tuple[bool, int | None]:
    """(dead, exit status) of the explorer's pane; a death by signal N is status -N."""
    out = tmux(
        "display-message",
        "-p",
        "-t",
        SESSION,
        "#{pane_dead} #{pane_dead_status} #{pane_dead_signal}",
    )
    dead, status, signal = [*out.strip().split(" "), "", ""][:3]
    if status.strip().isdigit():
        return dead == "1", int(status)
    return dead == "1", -int(signal) if signal.strip().isdigit() else None


#: Terminal control sequences, removed to read the pane's output as text.
ANSI = re.compile(
    r"\x1b\[[0-9;?<>=$]*[A-Za-z~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[()=>][0-9A-Z]?"
)


def traceback_in_log() -> str | None:
    """The first traceback the explorer printed: its exception line and last frame."""
    raw = ERR.read_text(encoding="utf-8", errors="replace") if ERR.exists() else ""
    start = raw.find("Traceback")
    if start < 0:
        return None
    lines = ANSI.sub("", raw[start:]).splitlines()
    # Frames are "│ path.py:123 in name │"; the outer box ends with a line that
    # starts with "╰" (the locals boxes inside it are indented), then the error.
    frames = [" ".join(ln.strip(" │").split()) for ln in lines if re.search(r"\.py:\d+ in ", ln)]
    end = next((i for i, ln in enumerate(lines) if ln.startswith("╰")), len(lines) - 1)
    error = next((ln.strip() for ln in lines[end + 1 :] if ln.strip()), "?")
    ours = [f for f in frames if "site-packages" not in f]
    where = f"last frame {frames[-1] if frames else '?'}"
    if ours and ours[-1] != frames[-1]:
        where += f", last frame of ours {ours[-1]}"
    return f"{error[:200]} ({where})"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--keys", type=int, default=3000, help="keys to send (default 3000)")
    ap.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    ap.add_argument("--preset", default="imbalanced", help="preset to open (default imbalanced)")
    ap.add_argument("--batch", type=int, default=12, help="largest batch of keys (default 12)")
    ap.add_argument("--sleep", type=float, default=0.03, help="seconds between batches")
    ap.add_argument("--size", default="120x40", help="terminal size WxH (default 120x40)")
    args = ap.parse_args(argv)

    if shutil.which("tmux") is None:
        print("keymash: FAIL: tmux is not installed (apt-get install -y tmux)")
        return 2
    exe = ROOT / ".venv" / "bin" / "threshold-lab"
    workdir = Path(tempfile.mkdtemp(prefix="keymash-"))
    explorer = f"{shlex.quote(str(exe))} --preset {shlex.quote(args.preset)}"
    # A short sleep first, so the output pipe is open before the explorer starts.
    command = f"sleep 0.5; exec {explorer}"
    log = f"cat >> {shlex.quote(str(ERR))}"
    ERR.write_text("")

    tmux("kill-session", "-t", SESSION, check=False)
    width, height = args.size.split("x")
    tmux("new-session", "-d", "-s", SESSION, "-x", width, "-y", height, "-c", str(workdir), command)
    tmux("set-option", "-t", SESSION, "remain-on-exit", "on")
    tmux("pipe-pane", "-t", SESSION, log)
    time.sleep(3.0)  # let the explorer draw its first frame

    rng = random.Random(args.seed)
    keys = [k for _, step in plan(args.seed, args.keys) for k in step][: args.keys]
    sent = quits = 0
    crash = ""
    last: list[str] = []
    try:
        while sent < len(keys):
            batch = keys[sent : sent + rng.randint(1, args.batch)]
            tmux("send-keys", "-t", SESSION, "--", *(tmux_key(k) for k in batch))
            sent += len(batch)
            last = (last + batch)[-20:]
            time.sleep(args.sleep * rng.random())
            dead, status = pane_state()
            if dead:
                # The exit status cannot tell a crash from a quit (the explorer has
                # exited 0 after a traceback), so the log decides. tmux marks the pane
                # dead when its terminal closes, before it has the status: read again.
                for _ in range(10):
                    time.sleep(0.3)
                    dead, status = pane_state()
                    if status is not None:
                        break
                error = traceback_in_log()
                # tmux may leave the explorer a zombie it has not reaped (dead pane, no
                # status) for seconds after a quit: with no traceback, that is a quit.
                if error or status not in (0, None):
                    state = tmux(
                        "display-message",
                        "-p",
                        "-t",
                        SESSION,
                        "#{pane_dead} "
                        "[#{pane_dead_status}] [#{pane_dead_signal}] #{pane_current_command}",
                    )
                    procs = subprocess.run(
                        ["ps", "-eo", "pid,stat,etime,args"], capture_output=True, text=True
                    ).stdout
                    lingering = [ln for ln in procs.splitlines() if "threshold-lab" in ln]
                    crash = (
                        f"the explorer died after {sent} keys (status {status}, "
                        f"pane {state.strip()}, processes {lingering}): {error}"
                    )
                    break
                quits += 1  # a quit: legitimate; start again and go on
                tmux("respawn-pane", "-t", SESSION, "-c", str(workdir), command)
                tmux("pipe-pane", "-t", SESSION, log)
                time.sleep(2.5)
        if not crash:
            for _ in range(4):  # close whatever dialog the mash left open
                tmux("send-keys", "-t", SESSION, "Escape")
                time.sleep(0.4)
            time.sleep(1.0)
            dead, status = pane_state()
            # As above: a dead pane with no status yet is a quit tmux has not reaped.
            if dead and status in (0, None) and not traceback_in_log():  # the last keys quit
                quits += 1
                tmux("respawn-pane", "-t", SESSION, "-c", str(workdir), command)
                tmux("pipe-pane", "-t", SESSION, log)
                time.sleep(3.0)
                dead, status = pane_state()
            if dead:
                crash = f"the explorer exited with status {status} at the end"
        screen = tmux("capture-pane", "-p", "-t", SESSION)
        PANE.write_text(tmux("capture-pane", "-p", "-S", "-300", "-t", SESSION))
    finally:
        tmux("kill-session", "-t", SESSION, check=False)
        shutil.rmtree(workdir, ignore_errors=True)  # whatever the mash saved

    problems = []
    if crash:
        problems.append(crash)
    else:
        if "Threshold" not in screen:
            problems.append(f'the pane does not show "Threshold" (see {PANE})')
        error = traceback_in_log()
        if error:
            problems.append(f"Traceback in {ERR}: {error}")
    where = f"seed {args.seed}, {sent} keys, {quits} quits, preset {args.preset}"
    if problems:
        print(f"keymash: FAIL ({where}): {'; '.join(problems)}; last 20 keys {last}")
        return 1
    print(f"keymash: PASS ({where}): explorer alive, no Traceback in {ERR}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
