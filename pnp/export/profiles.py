"""Print-shop profiles: the image a shop wants for each card product it prints.

The default profile sizes an image from the game's own trim plus 3 mm of bleed, so any card
size of any game works. A shop profile instead knows the shop's products: a card whose trim is
within ``MATCH_TOLERANCE_MM`` of one of them (either way round) is exported at exactly that
product's published pixel size, the face stretched by the fraction of a millimetre between our
trim and the shop's; a card no product fits is refused, naming the nearest product.
"""

from __future__ import annotations

from dataclasses import dataclass

from pnp.errors import PnpError

MM_PER_INCH = 25.4
MATCH_TOLERANCE_MM = 2.0
"""How far a card's trim may be from a shop product's, per side, and still be that product:
63x88 mm is the 2.5x3.5 in poker card (0.5 and 0.9 mm off); 44x68 mm is no 1.75x2.5 in mini."""


class UnknownProfileError(PnpError):
    pass


class UnsupportedSizeError(PnpError):
    """The shop prints no product of this size."""


@dataclass(frozen=True)
class ShopProduct:
    """One card product of a shop, portrait."""

    name: str
    width_in: float
    height_in: float

    def trim_mm(self) -> tuple[float, float]:
        return self.width_in * MM_PER_INCH, self.height_in * MM_PER_INCH

    def __str__(self) -> str:
        return f"{self.name} ({self.width_in:g}x{self.height_in:g} in)"


@dataclass(frozen=True)
class ImageSize:
    """The pixels of one exported image, and the shop product it was matched to (if any)."""

    width_px: int
    height_px: int
    product: ShopProduct | None = None


@dataclass(frozen=True)
class ShopProfile:
    name: str
    bleed_mm: float
    """On every side of the trim."""
    dpi: int
    description: str
    products: tuple[ShopProduct, ...] = ()
    """The shop's card products; empty: any size, from the game's own trim."""
    bleed_px: int | None = None
    """The shop's bleed in whole pixels per side, when it states it that way."""

    def image_size(self, width_mm: float, height_mm: float) -> ImageSize:
        """The image for a card of this trim; UnsupportedSizeError naming the nearest product
        when the shop prints none of that size."""
        if not self.products:
            return ImageSize(self._pixels(width_mm), self._pixels(height_mm))
        landscape = width_mm > height_mm
        short, long_ = sorted((width_mm, height_mm))

        def distance(product: ShopProduct) -> float:
            product_short, product_long = product.trim_mm()
            return max(abs(product_short - short), abs(product_long - long_))

        nearest = min(self.products, key=distance)
        if distance(nearest) > MATCH_TOLERANCE_MM:
            raise UnsupportedSizeError(
                f"{self.name} prints no card of {width_mm:g}x{height_mm:g} mm "
                f"(nearest: {nearest}, {distance(nearest):.1f} mm off; "
                f"a product matches within {MATCH_TOLERANCE_MM:g} mm)"
            )
        across = self._shop_pixels(nearest.width_in)
        along = self._shop_pixels(nearest.height_in)
        if landscape:
            across, along = along, across
        return ImageSize(across, along, nearest)

    def _pixels(self, trim_mm: float) -> int:
        return round((trim_mm + 2 * self.bleed_mm) / MM_PER_INCH * self.dpi)

    def _shop_pixels(self, trim_in: float) -> int:
        if self.bleed_px is not None:
            return round(trim_in * self.dpi) + 2 * self.bleed_px
        return round((trim_in + 2 * self.bleed_mm / MM_PER_INCH) * self.dpi)


# The shops' card products by trim. Poker's image sizes are the shops' published ones
# (shared/design/PRINT.md: The Game Crafter 825x1125 px, MakePlayingCards 822x1122 px); the
# other products follow each shop's stated bleed rule from its product's trim.
_COMMON_PRODUCTS = (
    ShopProduct("poker", 2.5, 3.5),
    ShopProduct("bridge", 2.25, 3.5),
    ShopProduct("mini", 1.75, 2.5),
    ShopProduct("tarot", 2.75, 4.75),
    ShopProduct("square", 2.5, 2.5),
    ShopProduct("large-square", 3.5, 3.5),
)

PROFILES: dict[str, ShopProfile] = {
    profile.name: profile
    for profile in (
        # The European norm, and the kit's own PDFs' bleed (shared/design/PRINT.md).
        ShopProfile("default", 3.0, 300, "3 mm bleed, 300 dpi, sized from the game's trim"),
        # MakePlayingCards: 36 px of bleed per side at 300 dpi (poker: 822 x 1122 px).
        ShopProfile(
            "makeplayingcards",
            36 / 300 * MM_PER_INCH,
            300,
            "MakePlayingCards' products: 36 px bleed per side at 300 dpi",
            products=_COMMON_PRODUCTS,
            bleed_px=36,
        ),
        # The Game Crafter: 1/8 in of bleed per side at 300 dpi (poker: 825 x 1125 px).
        ShopProfile(
            "thegamecrafter",
            MM_PER_INCH / 8,
            300,
            "The Game Crafter's products: 1/8 in bleed per side at 300 dpi",
            products=(*_COMMON_PRODUCTS, ShopProduct("jumbo", 3.5, 5.75)),
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
