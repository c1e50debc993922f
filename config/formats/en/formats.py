"""English dates and times as a European room writes them: day before month and the
24-hour clock (Django's "en" is American: 12/07/2026 and "11:21 a.m."), the same order
as the Italian pages. Input formats are Django's own."""

DATE_FORMAT = "j F Y"
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "j F Y, H:i"
YEAR_MONTH_FORMAT = "F Y"
MONTH_DAY_FORMAT = "j F"
SHORT_DATE_FORMAT = "d/m/Y"
SHORT_DATETIME_FORMAT = "d/m/Y H:i"
FIRST_DAY_OF_WEEK = 1  # Monday
