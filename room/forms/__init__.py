"""The room's forms, one module per topic: what is typed or posted, parsed and bounded once."""
