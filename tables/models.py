"""The tables app keeps no rows of its own: the event's tables and seats and its rulings
are `tournaments.models`', the cash room's, the jackpots' and the room's log
`room.models`' (README.md). Its migrations stay: they are those rows' history."""
