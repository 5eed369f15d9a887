"""Ctrl-C and hang-ups lose nothing.

The failures it guards against: Ctrl-C in plain mode printing a KeyboardInterrupt
traceback and dropping the edits, at the prompt and during a long command; SIGHUP (a
dropped SSH link) and SIGTERM ending plain mode and the explorer silently, edits lost,
the explorer's terminal left in its screen mode. Each test here runs the real command.
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from threshold_lab.core.session import recovery

from tests.paths import DATA
from tests.terminal import read_terminal, spawn_in_terminal

COMMAND = [sys.executable, "-m", "threshold_lab"]


class Plain:
    """Plain mode in a child process, fed through a pipe, its output read as it
    comes (so a signal can be sent at a known moment)."""

    def __init__(self, *argv: str, cwd: Path) -> None:
        self.proc = subprocess.Popen(
            [*COMMAND, "--plain", *argv],
            cwd=cwd,
            text=True,
            bufsize=1,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.lines: list[str] = []
        #: Cleared to stop reading: the child then blocks once the pipe is full.
        self.reading = threading.Event()
        self.reading.set()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))
            self.reading.wait()

    def send(self, *commands: str) -> None:
        assert self.proc.stdin is not None
        for c in commands:
            self.proc.stdin.write(c + "\n")
        self.proc.stdin.flush()

    def _until(self, done: Callable[[], bool], what: str, seconds: float) -> None:
        """Poll ``done`` until it holds; fail naming ``what`` after ``seconds``, or at
        once if the child has ended."""
        end = time.monotonic() + seconds
        while not done():
            assert time.monotonic() < end, f"{what}; got {self.lines[-5:]}"
            assert self.proc.poll() is None, f"ended early: {self.lines[-5:]}"
            time.sleep(0.02)

    def wait_for(self, text: str, seconds: float = 30) -> None:
        self._until(
            lambda: any(text in line for line in self.lines), f"{text!r} never came", seconds
        )

    def at_prompt(self, seconds: float = 30) -> None:
        """Wait until the child waits for its next line: blocked reading the pipe of
        its input (Linux names that wait in /proc: pipe_read, anon_pipe_read, or
        pipe_wait on older kernels). A command's last line comes a moment before it
        returns, and on a busy machine a signal sent on that line could still land in
        the command."""
        wchan = Path(f"/proc/{self.proc.pid}/wchan")
        self._until(
            lambda: any(w in wchan.read_text() for w in ("pipe_read", "pipe_wait")),
            "never waited for input",
            seconds,
        )

    def signal(self, sig: int) -> None:
        self.proc.send_signal(sig)

    def end(self, seconds: float = 30) -> tuple[int, str]:
        """Close the input; the exit status and stderr."""
        assert self.proc.stdin is not None
        if not self.proc.stdin.closed:
            with contextlib.suppress(BrokenPipeError):
                self.proc.stdin.close()
        code = self.proc.wait(timeout=seconds)
        self._reader.join(timeout=5)
        assert self.proc.stderr is not None
        return code, self.proc.stderr.read()


@pytest.fixture
def rows(tmp_path: Path) -> Path:
    """A 5,000-row file of a noisy model (play prints one line per tie group)."""
    rng = np.random.default_rng(5)
    y = rng.random(5000) < 0.3
    s = np.round(1 / (1 + np.exp(-(rng.normal(size=5000) + 1.5 * y))), 6)
    p = tmp_path / "noisy.csv"
    body = "".join(f"{a!r},{int(b)}\n" for a, b in zip(s.tolist(), y.tolist(), strict=True))
    p.write_text("score,label\n" + body)
    return p


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_a_hang_up_with_edits_keeps_them_beside_the_source(
    tmp_path: Path, sig: signal.Signals
) -> None:
    src = tmp_path / "costs.csv"
    src.write_bytes((DATA / "costs.csv").read_bytes())
    plain = Plain(str(src), cwd=tmp_path)
    plain.send("label r0 1")
    plain.wait_for("Row r0: actual label flipped to 1.")
    plain.signal(sig)
    code, err = plain.end()
    kept = sorted(tmp_path.glob("costs.recovered-*.csv"))
    assert code == 128 + sig and len(kept) == 1
    assert err == f"threshold-lab: {sig.name}: the unsaved edits were written to {kept[0]}\n"
    assert kept[0].read_text().splitlines()[:2] == ["id,score,label", "r0,0.44,1"]
    assert src.read_bytes() == (DATA / "costs.csv").read_bytes()  # never over the source
    # The next start on the same source says the file is there.
    again = Plain(str(src), cwd=tmp_path)
    again.send("quit")
    code, _ = again.end()
    assert code == 0
    assert again.lines[2] == (
        f"An earlier session's unsaved edits are in {kept[0]}: open it to get them back."
    )


def test_a_hang_up_of_a_preset_keeps_the_edits_in_the_working_folder(tmp_path: Path) -> None:
    plain = Plain("canonical", cwd=tmp_path)
    plain.send("delete s1")
    plain.wait_for("Removed row s1")
    plain.signal(signal.SIGTERM)
    code, err = plain.end()
    kept = list(tmp_path.glob("canonical.recovered-*.csv"))
    assert code == 143 and len(kept) == 1 and "unsaved edits were written to" in err
    assert kept[0].read_text().count("\n") == 5  # the header and the four rows left


def test_a_hang_up_without_edits_writes_nothing(tmp_path: Path) -> None:
    plain = Plain("canonical", cwd=tmp_path)
    plain.send("status")
    plain.wait_for("Threshold 0.5")
    plain.wait_for("Threshold 0.5: 3 of 5")
    plain.signal(signal.SIGTERM)
    code, err = plain.end()
    assert (code, err, list(tmp_path.iterdir())) == (143, "", [])


def test_recovery_never_replaces_a_file_and_falls_back_to_the_working_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    src = tmp_path / "src" / "rows.csv"
    src.parent.mkdir()
    src.write_text("x")
    monkeypatch.chdir(tmp_path)
    taken = src.parent / "rows.recovered-20261201-120000.csv"
    taken.write_text("an earlier one")
    now = time.mktime((2026, 12, 1, 12, 0, 0, 0, 0, -1))
    first = recovery.write("a\n", src, "rows.csv", now=now)
    assert first == src.parent / "rows.recovered-20261201-120000-2.csv"
    assert taken.read_text() == "an earlier one" and first.read_text() == "a\n"
    # A source folder that cannot be written: the working folder takes it.
    monkeypatch.setattr(os, "access", lambda path, mode: Path(path) != src.parent)
    second = recovery.write("b\n", src, "rows.csv", now=now)
    assert second == tmp_path / "rows.recovered-20261201-120000.csv"
    assert recovery.found(src, "rows.csv")[0] in (second.resolve(), first.resolve())


def test_ctrl_c_stops_play_and_the_session_goes_on(rows: Path, tmp_path: Path) -> None:
    plain = Plain(str(rows), cwd=tmp_path)
    plain.send("label 1 1", "play")
    plain.wait_for("Step 1 of 4983")
    plain.reading.clear()  # play now blocks writing into a full pipe: mid-play for sure
    time.sleep(1)
    plain.signal(signal.SIGINT)
    plain.reading.set()
    plain.wait_for("Stopped play (Ctrl-C). Threshold")
    assert not any(line.startswith("Step 4983 of 4983") for line in plain.lines)
    plain.send("status", "quit!")
    code, err = plain.end()
    assert code == 0 and err == "" and "Traceback" not in "\n".join(plain.lines)
    assert plain.lines[-1].startswith("Threshold ")  # status ran after the stop


def test_ctrl_c_stops_a_bootstrap_and_leaves_it_as_it_was(rows: Path, tmp_path: Path) -> None:
    plain = Plain(str(rows), cwd=tmp_path)
    plain.send("bootstrap 100000")
    plain.wait_for("Bootstrapping 100000 replicates...")
    plain.signal(signal.SIGINT)
    plain.wait_for("Stopped bootstrap (Ctrl-C).")
    plain.send("intervals on", "quit")
    code, err = plain.end()
    assert (code, err) == (0, ""), plain.lines[-3:]
    said = next(line for line in plain.lines if line.startswith("Intervals on"))
    assert "bootstrap for the rest" not in said  # no bootstrap set: as it was


def test_ctrl_c_at_the_prompt_with_edits_asks_then_leaves(rows: Path, tmp_path: Path) -> None:
    plain = Plain(str(rows), cwd=tmp_path)
    plain.send("label 1 1")
    plain.wait_for("Moved:")
    plain.at_prompt()
    plain.signal(signal.SIGINT)
    plain.wait_for("There are unsaved edits: Ctrl-C again or quit! to leave")
    assert plain.proc.poll() is None  # still there: it asked
    plain.at_prompt()
    plain.signal(signal.SIGINT)
    code, err = plain.end()
    assert code == 130 and err == "threshold-lab: interrupted; the unsaved edits were not saved\n"


def test_ctrl_c_at_the_prompt_without_edits_leaves(tmp_path: Path) -> None:
    plain = Plain("canonical", cwd=tmp_path)
    plain.wait_for("Threshold 0.5: 3 of 5")
    plain.at_prompt()
    plain.signal(signal.SIGINT)
    code, err = plain.end()
    assert (code, err) == (130, "")


def test_ctrl_c_during_a_report_bootstrap_is_one_line_and_status_130(rows: Path) -> None:
    proc = subprocess.Popen(
        [*COMMAND, "report", str(rows), "--bootstrap", "100000"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(4)  # well into the resampling
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and out == ""
    assert err == "threshold-lab: interrupted; nothing was written\n"


def edited_in_terminal(
    tmp_path: Path, *, plain: bool
) -> tuple[subprocess.Popen[bytes], int, bytes]:
    """costs.csv, copied to ``tmp_path``, open in the explorer (or plain mode) on a new
    pseudo-terminal (not the child's controlling one) with row r0's label flipped to 1,
    the explorer settled or plain mode back at its prompt: the child, the terminal's
    other end and what it showed so far."""
    src = tmp_path / "costs.csv"
    src.write_bytes((DATA / "costs.csv").read_bytes())
    proc, master = spawn_in_terminal(
        [*COMMAND, *(["--plain"] if plain else []), str(src)], tmp_path
    )
    try:
        if plain:
            out = read_terminal(master, 30, until=b"> ")
            os.write(master, b"label r0 1\n")
            out += read_terminal(master, 10, until=b"flipped to 1.")
            out += read_terminal(master, 10, until=b"\n> ")  # the prompt (not "13/25 -> 14/25")
        else:
            out = read_terminal(master, 30, until=b"predicted positive")
            out += read_terminal(master, 1.5)
            os.write(master, b" ")  # space: flip the selected row's label
            out += read_terminal(master, 10, until=b"actual label flipped")
    except BaseException:
        proc.kill()
        os.close(master)
        raise
    return proc, master, out


def kept_the_flip(tmp_path: Path) -> bool:
    """One recovery file beside costs.csv, holding the flipped row."""
    kept = list(tmp_path.glob("costs.recovered-*.csv"))
    return len(kept) == 1 and kept[0].read_text().splitlines()[1] == "r0,0.44,1"


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_the_explorer_keeps_edits_and_gives_the_terminal_back_on_a_hang_up(
    tmp_path: Path, sig: signal.Signals
) -> None:
    proc, master, out = edited_in_terminal(tmp_path, plain=False)
    try:
        proc.send_signal(sig)
        out += read_terminal(master, 15, until=b"unsaved edits were written")
        out += read_terminal(master, 1)
        assert proc.wait(timeout=15) == 128 + sig
    finally:
        proc.kill()
        os.close(master)
    assert kept_the_flip(tmp_path)
    text = out.decode(errors="replace")
    # The alternate screen is left before the note, which names the file.
    assert text.rindex("\x1b[?1049l") < text.index(f"{sig.name}: the unsaved edits were written")


@pytest.mark.parametrize("plain", [False, True], ids=["explorer", "plain"])
def test_edits_are_kept_when_the_terminal_goes_without_a_signal(
    tmp_path: Path, plain: bool
) -> None:
    """The terminal closes and no SIGHUP comes: it is not the child's controlling
    terminal, as under `make run` (make, not the child, gets the hang-up). Before: the
    explorer stayed, orphaned, its input thread reading end-of-file in a loop at a
    core's worth of CPU; plain mode took it as the end of input, said the edits were
    not saved and left with status 1. Now both keep the edits and end as on SIGHUP."""
    proc, master, _ = edited_in_terminal(tmp_path, plain=plain)
    try:
        os.close(master)
        assert proc.wait(timeout=15) == 128 + signal.SIGHUP
    finally:
        proc.kill()
    assert kept_the_flip(tmp_path)


def test_ctrl_d_on_a_terminal_still_there_ends_plain_mode_as_before(tmp_path: Path) -> None:
    """End of input typed at a live terminal is not a hang-up: the warning, status 1,
    no recovery file."""
    proc, master, _ = edited_in_terminal(tmp_path, plain=True)
    try:
        os.write(master, b"\x04")  # Ctrl-D
        out = read_terminal(master, 15, until=b"not saved")
        assert proc.wait(timeout=15) == 1
    finally:
        proc.kill()
        os.close(master)
    assert b"unsaved edits" in out and not list(tmp_path.glob("costs.recovered-*.csv"))


def test_a_stop_whose_raise_was_lost_stops_the_next_progress_check() -> None:
    """Python prints and drops an exception a signal's handler raises inside a weak
    reference's or the collector's callback: the stop is recorded too, and a long
    command's progress raises it there."""
    from threshold_lab.tui.plain import hangup

    hangup.acted_on()
    assert hangup.still_stopping(1, 10) is True
    with contextlib.suppress(KeyboardInterrupt):  # raised where Python drops it
        hangup.interrupt(signal.SIGINT, None)
    with pytest.raises(KeyboardInterrupt):
        hangup.still_stopping(2, 10)
    hangup.acted_on()
    assert hangup.still_stopping(3, 10) is True
    with contextlib.suppress(hangup.HangUp):
        hangup._hang_up(signal.SIGTERM, None)
    with pytest.raises(hangup.HangUp) as stop:
        hangup.still_stopping(4, 10)
    assert stop.value.signum == signal.SIGTERM
    hangup.acted_on()


def test_a_stop_left_from_before_a_command_is_not_that_commands() -> None:
    from threshold_lab.core.data.presets import preset
    from threshold_lab.core.session.session import Session
    from threshold_lab.tui.plain import hangup
    from threshold_lab.tui.plain.dispatch import PlainSession

    out = io.StringIO()
    plain = PlainSession(Session(preset("canonical").data, 0.5, source="x"), out)
    with contextlib.suppress(KeyboardInterrupt):
        hangup.interrupt(signal.SIGINT, None)
    plain.run_line("bootstrap 200")
    assert "Stopped" not in out.getvalue()
    assert "Bootstrap on: 200 replicates" in out.getvalue()
    assert hangup.still_stopping() is True


def test_a_sweep_keeps_its_auc_sums_itself() -> None:
    """The ROC AUC's running sums are held by the sweep (no weak dictionary, whose
    callback at each sweep's end could swallow a Ctrl-C)."""
    from threshold_lab.core.curves.roc import roc_auc, segment_sum, segment_terms
    from threshold_lab.core.curves.sweep import build_sweep
    from threshold_lab.core.data.dataset import make_dataset

    rng = np.random.default_rng(3)
    sweep = build_sweep(make_dataset(rng.random(300_000), rng.random(300_000) < 0.4))
    assert sweep.memo == {}
    roc_auc(sweep)
    assert list(sweep.memo) == ["roc_auc_checkpoints"]
    last = sweep.size - 1
    assert segment_sum(sweep, 5, last - 7) == segment_terms(sweep.fp, sweep.tp, 5, last - 7)
