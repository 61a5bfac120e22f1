"""Reading encounter files and writing timelines."""

from affray.io.load import Loaded, load_encounter, load_text

__all__ = ["Loaded", "load_encounter", "load_text"]
