#!/usr/bin/env python3
"""Checks a commit subject line read from stdin against the Conventional Commits rules."""
import re
import sys

subject = sys.stdin.readline().rstrip("\n")
pattern = r"^(feat|fix|docs|refactor|test|chore)(\([a-z0-9-]+\))?!?: \S.{0,70}[^.]$"
if not re.match(pattern, subject):
    print(f"not a conventional commit subject: {subject!r}")
    sys.exit(1)
print("ok")
