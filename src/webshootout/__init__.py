"""webshootout: reproducible web-framework shootouts on one Linux machine."""

from pathlib import Path

__version__ = "0.1.0"
ROOT = Path(__file__).resolve().parents[2]  # the project's folder: frameworks/, suites/, target/
