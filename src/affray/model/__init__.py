"""The encounter model (pydantic) and the tables that derive what a file leaves out."""

from affray.model.encounter import Combatant, Declaration, Encounter, Rolls, Side, Spell, Weapon

__all__ = ["Combatant", "Declaration", "Encounter", "Rolls", "Side", "Spell", "Weapon"]
