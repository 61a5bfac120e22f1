"""Replaying a played fight under other rulesets (CONTRACT.md "Replaying a fight under another ruleset")."""
