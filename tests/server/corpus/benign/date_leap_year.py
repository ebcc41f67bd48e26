# Is 2028 a leap year?
# ruff: noqa - written the way small models write it; a sample, not project code
import calendar

print("Yes" if calendar.isleap(2028) else "No", "- 2028", "is" if calendar.isleap(2028) else "is not", "a leap year.")
