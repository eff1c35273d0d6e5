#!/usr/bin/env python3
"""What is typed at the interactive prompt is what runs: non-ASCII text
survives whatever the locale (the line editor used to drop every non-ASCII
key in the C locale, so 'héllo' was stored as 'hllo'), and a statement can
span lines.

Usage: interactive_prompt.py LAKESTREAM"""
import sys

from ctrl_c import Terminal, check
import ctrl_c

TEXTS = ["héllo", "日本語", "Zürich €5", "🙂 ok"]


def typed_text_reaches_the_statement(locale_env, label):
    term = Terminal(["-csv"], env=locale_env)
    check("%s: the prompt shows" % label, term.read_until("lakestream> ", 20), term.out)
    for text in TEXTS:
        term.out = ""
        term.send("SELECT '%s' AS typed, length('%s') AS n;\n" % (text, text))
        expected = "%s,%d" % (text, len(text))
        check("%s: %r typed arrives intact" % (label, text), term.read_until(expected, 20), term.out)
        term.read_until("lakestream> ", 10)
    term.out = ""
    term.send("SELECT 'first line' AS a,\n")
    check("%s: an unfinished statement asks for more" % label, term.read_until("...> ", 10), term.out)
    term.send("       'ünd second' AS b;\n")
    check("%s: the statement spans both lines" % label, term.read_until("first line,ünd second", 20), term.out)
    term.send(".quit\n")
    check("%s: the shell exits normally" % label, term.wait(20) == 0, term.out)


def main():
    typed_text_reaches_the_statement({"LC_ALL": "C", "LANG": "C"}, "C locale")
    typed_text_reaches_the_statement({"LC_ALL": "C.UTF-8"}, "C.UTF-8 locale")
    print("%d failure(s)" % ctrl_c.failures)
    sys.exit(1 if ctrl_c.failures else 0)


if __name__ == "__main__":
    main()
