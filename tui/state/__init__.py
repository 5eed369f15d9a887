"""What the main screen hands its widgets, and how it is made: the frame (one Update,
its prepared drawing and the statistics the widgets read of it), the layout
arithmetic the drawing is prepared for, the preparing worker, and the screen as its
helpers see it (the host). Below the widgets and above the commands: nothing here
draws, and nothing here names a widget or a screen."""
