"""An exploring session: rows, threshold, edit history, row views and saving; every change
returns an Update.
"""
