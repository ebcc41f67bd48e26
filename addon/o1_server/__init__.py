"""o1 add-on server."""

__version__ = "0.1.0"
