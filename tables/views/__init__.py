"""The room's own pages (outside any tournament): the cash room and the pit. One module
per topic; each view checks the user's room role (`tables.permissions`)."""
