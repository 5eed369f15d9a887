"""One report of a classifier's scores: built once in core, rendered by every front end."""
