"""Competition between players across games: ratings now (``ratings.py``); pairings for tournaments later.
Pure: no discord, no I/O."""
