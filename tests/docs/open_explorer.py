"""``python -m tests.docs.open_explorer ARGS``: what ``threshold-lab ARGS`` opens, run
headless: the explorer is built from the same arguments, drawn once at 120x40 and
quit. Exit status 0, or the command line's own (2 for a refused argument)."""

from __future__ import annotations

import asyncio
import sys

from threshold_lab.core.errors import InputError
from threshold_lab.core.session.opening import open_session
from threshold_lab.tui.cli import explore, parser
from threshold_lab.tui.cli.args import fail


def main(argv: list[str]) -> int:
    if argv[:1] == ["lesson"]:  # threshold-lab lesson FILE: the explorer with it
        args = explore.lesson_parser().parse_args(argv[1:])
        args.lesson, args.source = args.lesson_file, None
    else:
        args = parser().parse_args(argv)
    try:
        request = explore.request_of(args)
        explore.check_theme(request.get("theme"))
        app = explore._app(request, open_session(request))
    except InputError as exc:
        return fail(str(exc))

    async def draw() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            await app.workers.wait_for_complete()
            await pilot.pause()

    asyncio.run(draw())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
