"""Saving regressions: modes, symlinks, odd ids, odd paths, folders and reset."""

from __future__ import annotations

import io
import os
import stat
from pathlib import Path

import pytest
from threshold_lab.core.data.dataset import make_dataset
from threshold_lab.core.data.presets import preset
from threshold_lab.core.errors import InputError
from threshold_lab.core.output import output, write_text
from threshold_lab.core.session.session import NeedsOverwrite, Session
from threshold_lab.tui.plain import run_plain


def canonical() -> Session:
    p = preset("canonical")
    return Session(p.data, p.threshold, source="preset canonical")


def play(*commands: str) -> list[str]:
    out = io.StringIO()
    run_plain(canonical(), [c + "\n" for c in commands], out, prompt=False, err=io.StringIO())
    return [ln for ln in out.getvalue().splitlines()[2:] if not ln.startswith("Moved: ")]


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")
def test_new_file_honours_the_umask(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        canonical().save(tmp_path / "new.csv")
        os.umask(0o027)
        canonical().save(tmp_path / "other.csv")
    finally:
        os.umask(old)
    assert mode(tmp_path / "new.csv") == 0o644
    assert mode(tmp_path / "other.csv") == 0o640


@pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")
def test_overwrite_keeps_the_file_mode(tmp_path: Path) -> None:
    target = tmp_path / "rows.csv"
    target.write_text("old\n")
    target.chmod(0o664)
    old = os.umask(0o077)
    try:
        canonical().save(target, overwrite=True)
    finally:
        os.umask(old)
    assert mode(target) == 0o664
    assert target.read_text().startswith("id,score,label\n")


@pytest.mark.skipif(os.name != "posix", reason="symlinks")
def test_saving_over_a_symlink_writes_through_it(tmp_path: Path) -> None:
    real = tmp_path / "real.csv"
    real.write_text("old\n")
    link = tmp_path / "link.csv"
    link.symlink_to(real)
    with pytest.raises(NeedsOverwrite):
        canonical().save(link)
    canonical().save(link, overwrite=True)
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_text().startswith("id,score,label\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.csv", "real.csv"]


@pytest.mark.skipif(os.name != "posix", reason="symlinks")
def test_saving_to_a_dangling_symlink_creates_its_target(tmp_path: Path) -> None:
    link = tmp_path / "link.csv"
    link.symlink_to(tmp_path / "made.csv")
    canonical().save(link)
    assert link.is_symlink()
    assert (tmp_path / "made.csv").read_text().startswith("id,score,label\n")


def test_any_id_can_be_saved_and_no_temp_file_is_left(tmp_path: Path) -> None:
    data = make_dataset([0.9, 0.1], [1, 0], ids=["a\ud800", "b"])
    s = Session(data, 0.5, source="json")
    target = tmp_path / "rows.csv"
    s.save(target)
    assert target.read_text(encoding="utf-8").splitlines()[1] == "a\\ud800,0.9,1"
    assert [p.name for p in tmp_path.iterdir()] == ["rows.csv"]


def test_a_failed_write_leaves_no_temp_file(tmp_path: Path) -> None:
    with pytest.raises(UnicodeEncodeError):
        write_text(output(tmp_path / "x.csv"), "bad \ud800\n")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", ["a\x00b.csv", "a\ud800b.csv"])
def test_unusable_file_names_are_input_errors(tmp_path: Path, name: str) -> None:
    with pytest.raises(InputError, match="file name") as info:
        canonical().save(tmp_path / name)
    assert "\n" not in str(info.value)
    assert list(tmp_path.iterdir()) == []


def test_nul_in_plain_save_is_one_error_line(tmp_path: Path) -> None:
    lines = play(f"save '{tmp_path}/a\x00b.csv'")
    assert len(lines) == 1
    assert lines[0].startswith("error: ") and lines[0].endswith("; nothing changed")
    assert "NUL" in lines[0]


def test_the_folder_is_synced_after_the_rename(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    synced: list[str | None] = []  # what each fsync was of, when it was made
    real_fsync = os.fsync

    def spy(fd: int) -> None:
        synced.append(opened.get(fd))
        real_fsync(fd)

    opened: dict[int, str] = {}
    real_open = os.open

    def spy_open(path: str | Path, flags: int, *args: int, **kw: int) -> int:
        fd = real_open(path, flags, *args, **kw)
        opened[fd] = str(path)
        return fd

    monkeypatch.setattr(os, "fsync", spy)
    monkeypatch.setattr(os, "open", spy_open)
    write_text(output(tmp_path / "x.csv"), "a\n")
    assert str(tmp_path) in synced


def test_folder_sync_failure_is_ignored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_open = os.open

    def no_dirs(path: str | Path, flags: int, *args: int, **kw: int) -> int:
        if Path(path).is_dir():
            raise PermissionError("cannot open a directory")
        return real_open(path, flags, *args, **kw)

    monkeypatch.setattr(os, "open", no_dirs)
    write_text(output(tmp_path / "x.csv"), "a\n")
    assert (tmp_path / "x.csv").read_text() == "a\n"


@pytest.mark.parametrize("overwrite", [False, True])
def test_saving_to_a_folder_is_refused(tmp_path: Path, overwrite: bool) -> None:
    folder = tmp_path / "dir"
    folder.mkdir()
    with pytest.raises(InputError, match="is a folder") as info:
        canonical().save(folder, overwrite=overwrite)
    assert not isinstance(info.value, NeedsOverwrite)
    assert folder.is_dir() and list(folder.iterdir()) == []


def test_plain_save_to_a_folder_does_not_suggest_overwrite(tmp_path: Path) -> None:
    (lines,) = play(f"save {tmp_path}")
    assert "is a folder" in lines and "overwrite" not in lines


@pytest.mark.parametrize("command", ['save ""', "save '' overwrite", "save '  '"])
def test_plain_save_with_an_empty_path(
    command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # a file named "  " must not appear anywhere
    assert play(command) == ["error: type a file name, such as save rows.csv; nothing changed"]
    assert list(tmp_path.iterdir()) == []


def test_reset_after_saving_elsewhere_returns_to_the_rows_as_loaded(tmp_path: Path) -> None:
    s = canonical()
    loaded = s.data
    s.flip_label(0)
    s.save(tmp_path / "edited.csv")
    assert s.reset().message == "Reset to preset canonical as loaded, threshold 0.5."
    assert s.data.labels.tolist() == loaded.labels.tolist()
    assert s.dirty  # the rows on screen now differ from the file just saved


def test_a_folder_that_cannot_be_searched_is_one_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Path.is_dir() raises PermissionError under a folder without search
    # permission (root ignores the mode, so the error is raised by hand).
    def denied(self: Path, *args: object, **kwargs: object) -> object:
        raise PermissionError(13, "Permission denied", str(self))

    s = canonical()
    monkeypatch.setattr(Path, "stat", denied)
    with pytest.raises(InputError, match=r"cannot save to .*x\.csv: Permission denied"):
        s.save(tmp_path / "locked" / "x.csv")
