"""`bench registration_load`: placeholder, filled in below."""
