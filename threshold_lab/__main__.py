"""``python -m threshold_lab`` runs the same program as the ``threshold-lab`` command."""

from threshold_lab.tui.cli import main

raise SystemExit(main())
