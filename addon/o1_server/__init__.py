"""o1 add-on server."""

__version__ = "0.2.0"
