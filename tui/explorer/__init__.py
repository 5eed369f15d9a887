"""The explorer's parts that are neither widgets nor screens: the frame handed down to
the widgets and the preparing of it, the dialog flows, playback and the demo tour."""
