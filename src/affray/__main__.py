"""``python -m affray``."""

from affray.cli.app import main

main()
