"""The designer's balance lab: studies of rule variants on common deals, their measures with
intervals and tests, and a report folder (see docs/balance.md)."""
