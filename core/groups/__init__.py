"""The gaps between groups of rows (sites, age bands, devices), with their intervals;
the rows are split by :mod:`threshold_lab.core.data.groups`."""
