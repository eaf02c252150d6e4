#!/usr/bin/env python3
# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# docs_commands.py - every `threadsoup ...` command README.md and docs/user-guide.md, plans.md,
# protocol.md and schema.md show is one the program takes: a complete example is read by the
# real argument parser (the hidden `threadsoup --parse-only`, which stops before anything runs),
# and every option of a synopsis (a line with [ ], |, … or PLACEHOLDERS) is one its command's
# --help names. Also: every image README.md shows is one a screenshot test writes
# (tests/wine/*.sh), and every image in docs/images is shown. Fails naming the file, the line
# and what is wrong.
# usage: docs_commands.py THREADSOUP SOURCE_DIR
import os
import re
import shlex
import subprocess
import sys

exe, source = sys.argv[1], sys.argv[2]
docs = ["README.md"] + [os.path.join("docs", d)
                       for d in ("user-guide.md", "plans.md", "protocol.md", "schema.md")]
failures = []


def run(args):
    p = subprocess.run([exe] + args, capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


def commands_in(path):
    """(line number, command text) for each `threadsoup ...` in a code block or in backticks."""
    found = []
    in_block = False
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if line.lstrip().startswith("```"):
                in_block = not in_block
                continue
            if in_block:
                text = re.sub(r"^\s*\$\s+", "", line.rstrip("\n"))
                # A line may hold several commands side by side, and a note after three spaces.
                for part in re.split(r"\s{3,}", text):
                    if part.startswith("threadsoup "):
                        found.append((number, part.strip()))
            else:
                for span in re.findall(r"`(threadsoup\s[^`]*)`", line):
                    found.append((number, span.strip()))
    return found


def is_synopsis(command):
    """A synopsis shows the shape of a command, not one to type: checked by its option names."""
    if re.search(r"[\[\]…<>]|\.\.\.|\s\|\s", command):
        return True
    words = shlex.split(command, posix=True)[1:]
    return any(re.fullmatch(r"[A-Z][A-Z0-9_|.,:=-]+", w) or "|" in w for w in words)


main_code, main_help, _ = run(["--help"])
command_words = set(re.findall(r"^  (\S+) ", main_help, re.M))
help_of = {}


def options_of(word):
    if word not in help_of:
        _, text, _ = run([word, "--help"])
        help_of[word] = set(re.findall(r"--[a-z0-9][a-z0-9-]*", text))
    return help_of[word]


checked = 0


def check(where, command):
    """Checks one command; a synopsis's alternatives that start with a command word ("history
    [--service] | report RUN") are each checked as that command's synopsis."""
    global checked
    try:
        words = shlex.split(command, posix=True)
    except ValueError:
        words = command.split()
    if len(words) < 2 or words[1] in ("--help", "--version", "-h"):
        return
    word = words[1]
    if word not in command_words:
        failures.append(f"{where}: '{word}' is not a command of threadsoup --help")
        return
    checked += 1
    if not is_synopsis(command):
        code, out, err = run(["--parse-only"] + words[1:])
        if code != 0:
            failures.append(f"{where}: the parser refused it (exit {code}): {err.strip()}")
        return
    alternatives = re.split(r"\s\|\s", command)
    own = [alternatives[0]]
    for alternative in alternatives[1:]:
        first = alternative.split()[0] if alternative.split() else ""
        if first in command_words and first != word:
            check(where, "threadsoup " + alternative.strip())
        else:
            own.append(alternative)
    known = options_of(word)
    for option in re.findall(r"(?<![\w-])--[a-z0-9][a-z0-9-]*", " | ".join(own)):
        if option not in known:
            failures.append(f"{where}: {option} is not an option threadsoup {word} --help names")


for doc in docs:
    for number, command in commands_in(os.path.join(source, doc)):
        check(f"{doc}:{number}: `{command}`", command)

# The README's images are the ones the screenshot tests make, and every image is shown.
readme = open(os.path.join(source, "README.md"), encoding="utf-8").read()
shown = set(re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", readme))
written = set()
wine = os.path.join(source, "tests", "wine")
for name in sorted(os.listdir(wine)):
    if name.endswith(".sh"):
        text = open(os.path.join(wine, name), encoding="utf-8").read()
        written |= set(re.findall(r"\$shots/([A-Za-z0-9_.-]+\.png)", text))
for image in sorted(shown):
    if os.path.basename(image) not in written:
        failures.append(f"README.md shows {image}, which no screenshot test (tests/wine/*.sh) "
                        f"writes")
    if not os.path.isfile(os.path.join(source, image)):
        failures.append(f"README.md shows {image}, which is not in the repository")
all_docs = readme + "".join(open(os.path.join(source, "docs", n), encoding="utf-8").read()
                            for n in os.listdir(os.path.join(source, "docs")) if n.endswith(".md"))
for name in sorted(os.listdir(os.path.join(source, "docs", "images"))):
    if f"images/{name}" not in all_docs:
        failures.append(f"docs/images/{name} is shown by neither README.md nor docs/*.md")

if checked < 20:
    failures.append(f"only {checked} commands found in {', '.join(docs)}: the extraction broke")
for f in failures:
    print("FAIL:", f)
print(f"{checked} documented commands checked, {len(shown)} README image(s)")
sys.exit(1 if failures else 0)
