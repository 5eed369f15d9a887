"""Screens of the explorer: the main screen and its dialogs."""
