"""Database backends: Django's, each with what the site adds to it."""
