"""The web table (``pnp play``): any game played in a browser with the kit's own faces, the
reference engine's rules and the strong player as opponents.

- :mod:`pnp.play.session`: one table's game, seats, history, undo, save and load, replay;
- :mod:`pnp.play.faces`: the kit's faces rasterised by the export's rasteriser;
- :mod:`pnp.play.server`: the aiohttp server, its seat links and pushed updates;
- ``static/``: the page (plain HTML, CSS and JavaScript).

What each seat sees comes from the game's view (``Game.view``, :mod:`pnp.engines.view`).
"""
