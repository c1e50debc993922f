"""The event's pure rules: plain data in, decisions out, time passed in; no Django."""
