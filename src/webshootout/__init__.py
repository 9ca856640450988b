"""webshootout: reproducible web-framework shootouts on one Linux machine."""

__version__ = "0.1.0"
