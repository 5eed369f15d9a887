"""The lessons shipped with threshold-lab, installed as ``threshold_lab.lessons``: each
``NAME.toml`` here runs as ``threshold-lab lesson NAME`` (docs/teaching.md)."""
