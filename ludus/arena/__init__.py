"""Bots against bots: simulations, and (later) tournaments, ratings and balance reports."""

from .simulate import SimulationError, lineup, play_game, simulate, summarize

__all__ = ["SimulationError", "lineup", "play_game", "simulate", "summarize"]
