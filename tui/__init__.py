"""threshold-lab's terminal front end: the Textual explorer and the command line."""
