"""Celtae: rules engine, data, notation, Solitairix solo mode and rendering."""

from .game import CeltaeGame

__all__ = ["CeltaeGame"]
