"""The command line: the first word picks a command, one error path, Textual's themes."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
from textual.app import App
from textual.theme import BUILTIN_THEMES
from threshold_lab.tui.app import ThresholdLab
from threshold_lab.tui.cli import COMMANDS, explore, main

from tests.paths import ROOT


def plain(monkeypatch: pytest.MonkeyPatch, *commands: str) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(c + "\n" for c in commands)))


def opened_apps(monkeypatch: pytest.MonkeyPatch) -> list[ThresholdLab]:
    """Record each app the command line would run, instead of running it."""
    apps: list[ThresholdLab] = []
    monkeypatch.setattr(ThresholdLab, "run", lambda app: apps.append(app))
    return apps


def test_help_lists_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--help"])
    out = capsys.readouterr().out
    assert info.value.code == 0
    assert out.startswith("usage: threshold-lab [SOURCE] [options]\n")
    for name in ("report", "screenshot", "serve"):
        assert f"threshold-lab {name} " in out  # in the usage
        assert f"\n    {name}  " in out  # in the list of commands
    assert "--playback-seconds S" in out and "Presets: canonical" in out


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_each_command_has_its_own_help(capsys: pytest.CaptureFixture[str], name: str) -> None:
    with pytest.raises(SystemExit) as info:
        main([name, "--help"])
    assert info.value.code == 0
    assert capsys.readouterr().out.startswith(f"usage: threshold-lab {name} ")


def test_the_first_word_picks_the_command_and_a_file_can_share_its_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("report").write_text("score,label\n0.9,1\n0.2,0\n")
    with pytest.raises(SystemExit) as info:
        main(["report"])
    err = capsys.readouterr().err
    assert info.value.code == 2
    assert err == (
        "threshold-lab report: error: the following arguments are required: SOURCE "
        "(see threshold-lab report --help)\n"
    )
    for argv in (["./report", "--plain"], ["--plain", "report"]):
        plain(monkeypatch, "quit")
        assert main(argv) == 0
        out, err = capsys.readouterr()
        assert out.startswith("threshold-lab plain mode: report, 2 rows.") and err == ""


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--plain", "nosuch.csv"], "nosuch.csv: no such file, and no preset has that name"),
        (["--plain", "good", "--preset", "weak"], "give a SOURCE or --preset NAME, not both"),
        (["--plain", "--threshold", "abc"], "threshold 'abc' is not a number"),
        (["--theme", "nope"], "no theme named 'nope'; themes are: textual-dark, "),
        (["nosuch.csv", "--theme", "nope"], "no theme named 'nope'"),
        (["screenshot", "x.svg", "--threshold", "nan"], "threshold 'nan' is not a finite"),
        (["screenshot", "x.svg", "--theme", "nope"], "no theme named 'nope'"),
        (["screenshot", "x.svg", "good", "--preset", "weak"], "give a SOURCE or --preset NAME"),
        (["screenshot", "x.svg", "--press", "right,nosuchkey"], "'nosuchkey' is not a key name"),
        (["screenshot", "x.svg", "--press", "ctrl+"], "'ctrl+' is not a key name"),
        (["screenshot", "x.svg", "--press", "hyper+shift+nope"], "is not a key name"),
        (["serve", "--port", "0"], "port 0 is not between 1 and 65535"),
        (["serve", "--", "nosuch.csv"], "nosuch.csv: no such file"),
        (["serve", "--", "--threshold", "abc"], "threshold 'abc' is not a number"),
        (["serve", "--", "--theme", "nope"], "no theme named 'nope'"),
    ],
)
def test_user_errors_are_one_line_on_stderr_and_exit_2(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    message: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    apps = opened_apps(monkeypatch)
    plain(monkeypatch, "quit")
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and apps == [] and list(tmp_path.iterdir()) == []
    assert err.startswith("threshold-lab: error: ") and err.count("\n") == 1
    assert message in err


def test_themes_are_textuals(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--theme", "nope"]) == 2
    assert capsys.readouterr().err.endswith(f"themes are: {', '.join(BUILTIN_THEMES)}\n")
    apps = opened_apps(monkeypatch)
    for theme in BUILTIN_THEMES:
        assert main(["--preset", "good", "--theme", theme]) == 0
    assert [app.theme for app in apps] == list(BUILTIN_THEMES)
    plain(monkeypatch, "quit")
    assert main(["--plain", "--theme", "nope"]) == 0  # plain mode has no theme


def test_explorer_options_reach_the_app(monkeypatch: pytest.MonkeyPatch) -> None:
    apps = opened_apps(monkeypatch)
    argv = ["--preset", "weak", "--threshold", "above-all", "--beta", "0.5"]
    assert main([*argv, "--playback-seconds", "0.25", "--demo", "--ascii"]) == 0
    (app,) = apps
    assert (app.ascii, app.demo, app.playback_seconds) == (True, True, 0.25)
    session = app.main.session
    assert (session.source, session.threshold, session.beta) == ("preset weak", None, 0.5)


def test_a_large_file_loads_in_the_background_and_errors_come_after(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    big = tmp_path / "big.csv"
    big.write_text("score,label\n0.5,1\n0.4,maybe\n")
    monkeypatch.setattr(explore, "BACKGROUND_BYTES", 10)
    assert main([str(big), "--threshold", "abc"]) == 2  # refused before any screen
    assert "threshold 'abc' is not a number" in capsys.readouterr().err
    monkeypatch.setattr(ThresholdLab, "run", lambda app: App.run(app, headless=True))
    assert main([str(big)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert err.startswith(f"threshold-lab: error: {big}: line 3, column 'label'")


def test_a_reader_that_leaves_early_gets_no_traceback(tmp_path: Path) -> None:
    rows = tmp_path / "rows.csv"
    rows.write_text("score,label\n" + "".join(f"{i / 20000!r},{i % 2}\n" for i in range(20000)))
    argv = [sys.executable, "-m", "threshold_lab", "report", str(rows), "--json", "--points", "all"]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.read(10) == b'{"schema":'
    proc.stdout.close()  # as head -c 10 does
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 1 and err == ""
