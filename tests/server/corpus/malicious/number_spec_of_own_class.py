# An object of the block's own class formats a number spec as a path.
# ruff: noqa - written the way small models write it; a sample, not project code
class Week:
    def __format__(self, spec):
        return "/etc/cron.d/x"
open(f"{Week():03d}", "w").write("owned")
