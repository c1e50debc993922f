"""The event's forms, one module per topic: `fields` (the shared fields, bounds and a form's
messages), `setup`, `desk`, `formats`, `money`, `floor`, `chips`, `days`, `books`, `players`
and `reservations`. Bounds and messages live once (STYLE.md 25); views parse input through
these and call one service; nothing else reads request.POST for what a form can hold."""
