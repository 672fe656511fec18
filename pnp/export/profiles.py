"""Print-shop profiles: the bleed (and resolution) a shop wants around each card image.

A profile never types a pixel size in: the image is the card's trim plus the profile's
bleed on every side, at the profile's resolution, so any card size of any game works.
"""

from __future__ import annotations

from dataclasses import dataclass

from pnp.errors import PnpError


class UnknownProfileError(PnpError):
    pass


@dataclass(frozen=True)
class ShopProfile:
    name: str
    bleed_mm: float  # on every side of the trim
    dpi: int
    description: str


PROFILES: dict[str, ShopProfile] = {
    profile.name: profile
    for profile in (
        # The European norm, and the kit's own PDFs' bleed (docs/PRINT.md).
        ShopProfile("default", 3.0, 300, "3 mm bleed, 300 dpi"),
        # MakePlayingCards: a poker card image of 822 x 1122 px, i.e. 36 px of bleed per
        # side at 300 dpi (print-shop notes, shared/design/PRINT.md). 36 px = 3.048 mm.
        ShopProfile(
            "makeplayingcards",
            36 / 300 * 25.4,
            300,
            "36 px (3.048 mm) bleed at 300 dpi, as MakePlayingCards asks",
        ),
        # The Game Crafter: 0.125 in of bleed on every side; a 2.5 x 3.5 in poker card is
        # uploaded as 2.75 x 3.75 in, 825 x 1125 px at 300 dpi (chitmunk.com/glossary/bleed;
        # docs.dextrous.com.au "Bleed": "The Game Crafter ... need to be 1125 x 825px pngs").
        # A 63 x 88 mm card with that bleed is 819 x 1121 px: sized from our trim, not theirs.
        ShopProfile(
            "thegamecrafter",
            25.4 / 8,
            300,
            "1/8 in (3.175 mm) bleed at 300 dpi, as The Game Crafter asks",
        ),
    )
}


def profile_named(name: str) -> ShopProfile:
    try:
        return PROFILES[name]
    except KeyError:
        known = ", ".join(PROFILES)
        raise UnknownProfileError(
            f"unknown shop profile {name!r} (expected one of {known})"
        ) from None
