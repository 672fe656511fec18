"""pnp: print-and-play kits and executable rules references, driven by one content source.

The package layout is the data path:
content (YAML) -> model -> layout -> render -> PDF, and content -> engines -> validate.
"""

__version__ = "0.1.0"
