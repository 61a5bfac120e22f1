"""How a fight reads: the timeline as text (``timeline``), and what a referee needs at a prompt (``status``).

Below every front end (the console, the page, the command line), which only choose what to show."""
