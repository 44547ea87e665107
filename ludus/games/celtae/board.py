"""Board geometry of Celtae: the rondel's corners and the action areas beside them.

The marker stops at 4 corners, clockwise NE -> SE -> SW -> NW. Each corner lies between
two action areas; the region of an action is the half the corner is in. Stepping from
NE to SE crosses the river on the right side: that triggers progress.
"""

from __future__ import annotations

NE, SE, SW, NW = 0, 1, 2, 3
CORNER_NAMES = ("NE", "SE", "SW", "NW")
NORTH, SOUTH = 0, 1
CORNER_REGION = (NORTH, SOUTH, SOUTH, NORTH)
CROSSING_FROM = NE  # a step from this corner to the next crosses the river

FARM, BUILD, BATTLE, RECRUIT = 0, 1, 2, 3
F, B, S, N, D = 0, 1, 2, 3, 4

# action areas: Farm/Build North coast, Battle (east), Farm/Build South coast, Recruit (west)
AREA_FB_NORTH, AREA_BATTLE, AREA_FB_SOUTH, AREA_RECRUIT = 0, 1, 2, 3
AREA_NAMES = ("Farm/Build North", "Battle", "Farm/Build South", "Recruit")


def area_of(kind: int, region: int) -> int:
    """The action area where ``kind`` is performed in ``region``."""
    if kind in (FARM, BUILD):
        return AREA_FB_NORTH if region == NORTH else AREA_FB_SOUTH
    return AREA_BATTLE if kind == BATTLE else AREA_RECRUIT


# (kind, region) choices beside each corner
ADJACENT = (
    ((FARM, NORTH), (BUILD, NORTH), (BATTLE, NORTH)),  # NE
    ((BATTLE, SOUTH), (FARM, SOUTH), (BUILD, SOUTH)),  # SE
    ((FARM, SOUTH), (BUILD, SOUTH), (RECRUIT, SOUTH)),  # SW
    ((RECRUIT, NORTH), (FARM, NORTH), (BUILD, NORTH)),  # NW
)
ANYWHERE = tuple((k, r) for r in (NORTH, SOUTH) for k in (FARM, BUILD, BATTLE, RECRUIT))
