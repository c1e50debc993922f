"""The tables' pure rules (the draw, balancing, buttons, seating); the engine, the cash room's and the pit's rules have their own packages."""
