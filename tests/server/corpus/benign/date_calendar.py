# Show me the calendar for February 2024.
# ruff: noqa - written the way small models write it; a sample, not project code
import calendar

print(calendar.month(2024, 2))
