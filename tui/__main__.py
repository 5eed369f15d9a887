"""``python -m tui`` runs the same program as the ``threshold-lab`` command."""

from tui.cli import main

raise SystemExit(main())
