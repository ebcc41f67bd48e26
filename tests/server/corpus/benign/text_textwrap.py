# Read me the report, nicely wrapped.
# ruff: noqa - written the way small models write it; a sample, not project code
import textwrap

with open("docs/report.txt") as f:
    print(textwrap.fill(f.read(), width=40))
