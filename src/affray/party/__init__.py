"""The party across fights (CONTRACT.md "The party across fights, and bringing it in"): a party file read, put in an
encounter, written back with what a fight left, and rested (``affray rest``)."""

from affray.party.file import Party, PartyError, read_party, with_party, write_atomic

__all__ = ["Party", "PartyError", "read_party", "with_party", "write_atomic"]
