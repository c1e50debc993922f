"""The ruling tools' words and presentation around the engine: `labels` (rule titles,
engine errors and the settings' options in the user's language), `citations` (every rule
code a page cites, as a short title with its text), `presentation` (a hand as the pages
show it) and `jackpot_labels` (the jackpot judgements' reasons). Reading what the floor
typed is the events' (`tournaments.forms.ruling`); the rules themselves stay in
`tables.engine`."""
