"""The admin's date style, the same as the staff pages' (hub.templatetags.fechas): 27/11/2026 15:35.

Django reads it for Spanish (settings.FORMAT_MODULE_PATH) before its own es and es_CO formats:
lists and read-only fields then write what the date inputs take.
"""

from __future__ import annotations

DATE_FORMAT = "d/m/Y"
DATETIME_FORMAT = "d/m/Y H:i"
SHORT_DATE_FORMAT = "d/m/Y"
SHORT_DATETIME_FORMAT = "d/m/Y H:i"
TIME_FORMAT = "H:i"
MONTH_DAY_FORMAT = "j \\d\\e F"
YEAR_MONTH_FORMAT = "F \\d\\e Y"
FIRST_DAY_OF_WEEK = 1  # Monday
# The first is what a date input shows; ISO is accepted too.
DATE_INPUT_FORMATS = ["%d/%m/%Y", "%Y-%m-%d", "%d/%m/%y"]
DATETIME_INPUT_FORMATS = [
    "%d/%m/%Y %H:%M:%S",
    "%d/%m/%Y %H:%M",
    "%Y-%m-%d %H:%M:%S",
    "%Y-%m-%d %H:%M",
    "%d/%m/%y %H:%M:%S",
    "%d/%m/%y %H:%M",
]
DECIMAL_SEPARATOR = ","
THOUSAND_SEPARATOR = "."
NUMBER_GROUPING = 3
