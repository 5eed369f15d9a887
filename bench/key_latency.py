"""Key-to-screen latency of the explorer at several sizes, driven by Textual's Pilot.

Run by hand (``make bench``), never in CI. For each size the explorer opens
at 120x40 on generated probabilities (ids included, as a real file has
them), and each key below is pressed many times. A key's latency runs from
the moment the key is sent to the last frame the screen paints for it:
Textual's compositor hands every frame to ``App._display`` (headless, it is
rendered and then not written), and the last such call after the key is
the refreshed screen. The figure is the median over the presses, with the
90th percentile beside it. Work an edit hands to threads (curves, summaries,
the score strip on large data) is waited for, so its last frame counts; the
first frame after the key is printed beside it: that is when the screen
answers.

Usage: python bench/key_latency.py [--sizes 100 10000 1000000] [--presses 30]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from typing import Any

import numpy as np
from threshold_lab.core.data.dataset import make_dataset
from threshold_lab.core.session.session import Session
from threshold_lab.tui.app import ThresholdLab

#: (what the key does, key name, the key that undoes it)
KEYS = (
    ("threshold -0.01 (left)", "left", "right"),
    ("next tie group (])", "right_square_bracket", "left_square_bracket"),
    ("row down (down)", "down", "up"),
    ("flip label (space)", "space", "space"),
    ("delete row, undo (del, ^z)", "delete", "ctrl+z"),
)


def generated(n: int, seed: int = 20261129) -> Session:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    p = 1.0 / (1.0 + np.exp(-rng.normal(loc=y * 1.2 - 0.6, scale=1.0)))
    ids = [f"r{i}" for i in range(n)]
    return Session(make_dataset(p, y, ids=ids), 0.5, source=f"{n} generated rows")


async def measure(
    n: int, presses: int, only: list[str] | None = None
) -> dict[str, list[tuple[float, float]]]:
    app = ThresholdLab(generated(n))
    frames: list[float] = []
    display = app._display

    def spy(screen: Any, renderable: Any) -> None:
        display(screen, renderable)
        if renderable is not None:
            frames.append(time.perf_counter())

    app._display = spy  # type: ignore[method-assign]
    out: dict[str, list[tuple[float, float]]] = {}
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(0.5)
        for name, key, back in KEYS:
            if only and not any(word in name for word in only):
                continue
            times: list[tuple[float, float]] = []
            for i in range(presses):
                await pilot.pause(0.05)  # let the last frame settle
                frames.clear()
                start = time.perf_counter()
                await pilot.press(key if i % 2 == 0 else back)
                for _ in range(3):
                    await pilot.pause(0.03)
                for _ in range(100):  # work handed to threads ends with one more frame
                    if not app.workers:
                        break
                    await pilot.pause(0.03)
                await pilot.pause(0.03)
                if frames:
                    times.append((frames[0] - start, frames[-1] - start))
            out[name] = times
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10**2, 10**4, 10**6])
    parser.add_argument("--presses", type=int, default=30)
    parser.add_argument(
        "--keys", nargs="+", help="only the keys whose description has one of these words"
    )
    args = parser.parse_args()
    print(
        f"{'rows':>9}  {'key':<28} {'median ms':>9} {'p90 ms':>7}  {'target':>6}"
        f"      {'first frame ms':>14}"
    )
    for n in args.sizes:
        result = asyncio.run(measure(n, args.presses, args.keys))
        for name, times in result.items():
            if not times:
                print(f"{n:>9}  {name:<28} no frame painted")
                continue
            ms = sorted(last * 1000 for _, last in times)
            first = statistics.median(f * 1000 for f, _ in times)
            p90 = ms[min(len(ms) - 1, int(0.9 * len(ms)))]
            median = statistics.median(ms)
            print(
                f"{n:>9}  {name:<28} {median:>9.1f} {p90:>7.1f}  {median / 30:>5.2f}x of 30 ms"
                f"  {first:>14.1f}"
            )


if __name__ == "__main__":
    main()
