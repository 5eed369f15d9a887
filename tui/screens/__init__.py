"""Screens of the explorer: the main screen, its dialogs and their flows, help and loading."""
