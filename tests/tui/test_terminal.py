"""tui/terminal.py's ``hung_up``: a pseudo-terminal before and after its other end
closes, and what is not a terminal."""

from __future__ import annotations

import os
import pty

from threshold_lab.tui.terminal import hung_up


def test_a_terminal_is_there_until_its_other_end_closes() -> None:
    master, slave = pty.openpty()
    try:
        assert not hung_up(slave)
        os.close(master)
        assert hung_up(slave)
    finally:
        os.close(slave)


def test_what_is_not_a_terminal_counts_as_gone() -> None:
    read, write = os.pipe()
    try:
        assert hung_up(read)
    finally:
        os.close(read)
        os.close(write)
    assert hung_up(-1)  # closed or never open


def test_an_open_file_is_asked_through_its_descriptor_and_a_closed_one_is_gone() -> None:
    master, slave = pty.openpty()
    stream = open(slave, closefd=True)  # noqa: SIM115 -- closed below, on purpose
    try:
        assert not hung_up(stream)
    finally:
        os.close(master)
        stream.close()
    assert hung_up(stream)  # plain mode's stdin closed under it
