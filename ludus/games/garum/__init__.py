"""Garum: the rules engine, its data and notation (see ``game.py`` for the scope)."""
