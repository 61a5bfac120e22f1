"""The random referee now ships with affray's conformance kit (``affray.conformance.referee``): the tests import it
from here as before."""

from affray.conformance.referee import RandomReferee, Violation, encounter
from affray.table import plain_event

__all__ = ["RandomReferee", "Violation", "encounter", "plain_event"]
